import { expect, test } from "../support/e2e-fixtures";
import { ADMIN_KEY } from "../support/e2e-env";
import { waitForMail } from "../support/e2e-mail";
import { badgeOrderById, ORDER_REF, uniqueCode } from "../support/e2e-badges";

// No page: the legacy JSON calls through the test's request context (its own X-Forwarded-For).
// It needs no browser, so it runs once.
test("API: POST /api/badge_orders.php creates an order from the server's tier table; GET needs the key", async ({
  request,
  uniqueEmail,
}, info) => {
  test.skip(info.project.name !== "js-on", "runs once; it needs no browser");
  const email = uniqueEmail("api");
  const code = uniqueCode(info);
  const res = await request.post("/api/badge_orders.php", {
    data: {
      tierKey: "t4",
      // An old client's idea of the tier: ignored, the server's table decides.
      tierName: "Cheap Partner",
      amount: 1,
      name: "  Api Supporter  ",
      email: email.toUpperCase(),
      phone: "",
      paymentReference: code.toLowerCase(),
      hardCopy: true,
      notes: "",
      portraitDataUrl: null,
      shareUrl: "https://evil.example/",
    },
  });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^application\/json/);
  const body = (await res.json()) as { ok: boolean; id: string };
  expect(body).toEqual({ ok: true, id: expect.stringMatching(ORDER_REF), orderUrl: expect.stringContaining("/orders/") });
  expect(badgeOrderById(body.id)).toMatchObject({
    tier_key: "t4",
    tier_name: "Partner",
    amount: 2100,
    name: "Api Supporter",
    email,
    payment_reference: code,
    hard_copy: 1,
    status: "pending",
    share_url: expect.stringMatching(/\/event\?utm_source=share&utm_medium=badge&utm_campaign=event_t4$/),
  });
  const mail = await waitForMail((m) => m.to.includes(email));
  expect(mail.subject).toBe(`We received your Partner confirmation (${body.id})`);

  // The same code again: refused with the spec's JSON error shape.
  const again = await request.post("/api/badge_orders.php", {
    data: { tierKey: "t1", name: "Someone Else", email: uniqueEmail("api2"), paymentReference: code },
  });
  expect(again.status()).toBe(409);
  expect(await again.json()).toEqual({ ok: false, error: expect.stringContaining("already been used") });

  // Invalid input: a 400 with the field's message.
  const bad = await request.post("/api/badge_orders.php", {
    data: { tierKey: "t1", name: "", email, paymentReference: uniqueCode(info) },
  });
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toEqual({ ok: false, error: "Please enter your full name." });

  // Listing is for staff: no key, a 401 in JSON; with the key, the order is there.
  const anonymous = await request.get("/api/badge_orders.php");
  expect(anonymous.status()).toBe(401);
  expect(anonymous.headers()["content-type"]).toMatch(/^application\/json/);
  expect(await anonymous.json()).toEqual({ ok: false, error: "Admin key required." });

  const listed = await request.get(`/api/badge_orders.php?status=pending&q=${body.id}`, {
    headers: { "X-Admin-Key": ADMIN_KEY },
  });
  expect(listed.status()).toBe(200);
  const list = (await listed.json()) as { ok: boolean; items: { id: string; tierName: string; amount: number }[] };
  expect(list.ok).toBe(true);
  expect(list.items).toEqual([expect.objectContaining({ id: body.id, tierName: "Partner", amount: 2100, status: "pending" })]);
});
