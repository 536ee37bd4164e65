import { expect, test } from "../support/e2e-fixtures";
import { rawGet, rawRequest } from "../support/raw-http";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

// The site has one address, PUBLIC_URL; pages opened by another host name go there, forms
// posted from another origin are told nothing was saved, and nothing typed into a form or a
// callback can forge a line of the server's log. A site of our own, started as `npm start` does.

const SECRET = "one-address-callback-secret-0123";
let site: SiteProcess;

test.describe.configure({ mode: "serial", timeout: 90_000 });
test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "no browser: runs once");

test.beforeAll(async () => {
  site = await startSiteProcess("one-address", { MPESA_CALLBACK_SECRET: SECRET, MPESA_SHORTCODE: "880100" });
});
test.afterAll(async () => {
  await site?.stop();
});

const origin = () => `http://127.0.0.1:${site.port}`;
const location = (head: string) => /^location: (.*)$/im.exec(head)?.[1]?.trim();

test("a page opened by another host name is sent to the same path on PUBLIC_URL", async () => {
  for (const host of ["www.127.0.0.1.example", "203.0.113.7", "old-site.example:8080"]) {
    const page = await rawGet(site.port, "/event?tab=supporters", [`Host: ${host}`]);
    expect(page.status, host).toBe(301);
    expect(location(page.head)).toBe(`${origin()}/event?tab=supporters`);
  }
  // The site's own host name, with or without the port, is served; so are the health checks.
  expect((await rawGet(site.port, "/about", ["Host: 127.0.0.1"])).status).toBe(200);
  // A loopback name (a reverse proxy on this machine that rewrites Host) is served, never looped.
  expect((await rawGet(site.port, "/about", ["Host: localhost:3000"])).status).toBe(200);
  expect((await rawGet(site.port, "/about", [`Host: 127.0.0.1:${site.port}`])).status).toBe(200);
  expect((await rawGet(site.port, "/healthz", ["Host: 10.0.0.5:3000"])).status).toBe(200);
});

test("a form posted from another origin gets a page that says nothing was saved and where to send it again", async ({ page }) => {
  for (const from of ["http://www.127.0.0.1.example", "https://evil.example", "null"]) {
    const res = await fetch(`${origin()}/join`, {
      method: "POST",
      headers: { Origin: from, "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=Wanjiru+Kamau&email=wanjiru%40example.org",
    });
    expect(res.status, from).toBe(403);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("This form was sent from another address than this site&#39;s, so nothing was saved.");
    expect(html).toContain(`href="${origin()}/join"`);
  }
  // What the supporter sees: the sentence, and a link that opens the form on the site's address.
  await page.route("http://www.example.org/join", async (route) => {
    const res = await fetch(`${origin()}/join`, { method: "POST", headers: { Origin: "http://www.example.org" }, body: new URLSearchParams({ name: "x" }) });
    await route.fulfill({ status: res.status, headers: { "content-type": "text/html; charset=utf-8" }, body: await res.text() });
  });
  await page.goto("http://www.example.org/join");
  await expect(page.getByRole("alert")).toHaveText("This form was sent from another address than this site's, so nothing was saved.");
  await page.getByRole("link", { name: `Open ${origin()}/join` }).click();
  await expect(page).toHaveURL(`${origin()}/join`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The JSON API answers in JSON.
  const api = await fetch(`${origin()}/api/subscribe.php`, {
    method: "POST",
    headers: { Origin: "https://evil.example", "Content-Type": "application/json" },
    body: JSON.stringify({ email: "a@example.org" }),
  });
  expect(api.status).toBe(403);
  expect(await api.json()).toEqual({ ok: false, error: expect.stringContaining("nothing was saved") });
});

test("nothing sent to the site can forge a line of its log", async () => {
  const forged = "FORGED-ENTRY [http] serving http://evil.example";
  const body = `{"TransID": "not json\r\n${forged}\n\u2028${forged}`;
  const answer = await rawRequest(
    site.port,
    `POST /api/pay/c2b/validation/${SECRET} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  expect(answer.status).toBe(200);
  await expect.poll(() => site.output()).toContain("validation accepted on doubt");
  const lines = site.output().split("\n");
  const entry = lines.find((l) => l.includes("validation accepted on doubt"))!;
  expect(entry).toContain(`not json\\r\\n${forged}\\n\\u2028${forged}`);
  expect(lines.filter((l) => l.startsWith("FORGED-ENTRY"))).toEqual([]);
});

test("Daraja's callbacks read the same at their exact address and at another spelling React Router matches", async () => {
  // React Router answers both the exact address and other spellings it matches (here: another
  // letter case), with the same handler.
  const confirmation = (code: string) =>
    JSON.stringify({
      TransactionType: "Pay Bill", TransID: code, TransTime: "20261127091502", TransAmount: "500.00", BusinessShortCode: "880100",
      BillRefNumber: "VESPERS", InvoiceNumber: "", OrgAccountBalance: "", ThirdPartyTransID: "",
      MSISDN: "2f1a7c4b9e0d83f6a5c2b1e4d7f09a3c6b8e5d2f1a4c7b0e9d3f6a2c5b8e1d4f", FirstName: "WANJIRU", MiddleName: null, LastName: "",
    });
  const send = async (path: string, method: string, body?: string) => {
    const res = await fetch(`${origin()}${path}`, { method, headers: { "Content-Type": "application/json" }, body });
    return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
  };
  const run = Date.now().toString(36).toUpperCase().slice(-4);
  const cases: [string, (prefix: string, n: number) => Promise<unknown>][] = [
    ["a new payment", (prefix, n) => send(`${prefix}/confirmation/${SECRET}`, "POST", confirmation(`TK${run}${n}01`))],
    ["the same payment again", (prefix, n) => send(`${prefix}/confirmation/${SECRET}`, "POST", confirmation(`TK${run}${n}01`))],
    ["a validation", (prefix, n) => send(`${prefix}/validation/${SECRET}`, "POST", confirmation(`TK${run}${n}02`))],
    ["a body that is not JSON", (prefix) => send(`${prefix}/confirmation/${SECRET}`, "POST", "{")],
    ["a wrong secret", (prefix) => send(`${prefix}/confirmation/wrong-secret-0123456789`, "POST", confirmation(`TK${run}X03`))],
    ["another kind", (prefix) => send(`${prefix}/refund/${SECRET}`, "POST", "{}")],
    ["GET", (prefix) => send(`${prefix}/confirmation/${SECRET}`, "GET")],
    ["PUT", (prefix) => send(`${prefix}/confirmation/${SECRET}`, "PUT", "{}")],
  ];
  for (const [label, ask] of cases) {
    const direct = await ask("/api/pay/c2b", 1);
    const routed = await ask("/API/Pay/C2B", 2);
    expect(direct, label).toEqual(routed);
  }
  expect(await send(`/api/pay/c2b/confirmation/${SECRET}`, "POST", confirmation(`TK${run}303`))).toEqual({
    status: 200,
    type: "application/json; charset=utf-8",
    body: JSON.stringify({ ResultCode: 0, ResultDesc: "Accepted" }),
  });
  expect((await send(`/api/pay/c2b/confirmation/${SECRET}`, "POST", "{")).status).toBe(400);
  expect((await send(`/api/pay/c2b/confirmation/wrong-secret-0123456789`, "POST", "{}")).status).toBe(404);
});

test("with no PUBLIC_URL chosen, a phone on the same network opens the machine's address and its forms are saved", async () => {
  const lan = await startSiteProcess("no-public-url", {}, ["PUBLIC_URL"]);
  try {
    const here = `192.168.1.20:${lan.port}`;
    const page = await rawGet(lan.port, "/join", [`Host: ${here}`]);
    expect(page.status, "served, not sent to localhost").toBe(200);
    const post = (from: string) => {
      const body = new URLSearchParams({ name: "Achieng Otieno", email: "achieng@example.org", role: "DevOps", message: "From my phone", consent: "yes" }).toString();
      return rawRequest(
        lan.port,
        `POST /join HTTP/1.1\r\nHost: ${here}\r\nOrigin: ${from}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    const fromThePhone = await post(`http://${here}`);
    expect(fromThePhone.status, `the form sent from the address it was opened by is saved: ${fromThePhone.body.slice(0, 400)}`).toBe(302);
    expect(/^location: (.*)$/im.exec(fromThePhone.head)?.[1]?.trim()).toBe("/join/thanks");
    // Another site's form is still refused, and so is an origin that is no address at all.
    for (const from of ["https://evil.example", `http://192.168.1.21:${lan.port}`, "null"]) {
      const other = await post(from);
      expect(other.status, from).toBe(403);
      expect(other.body).toContain("nothing was saved");
    }
  } finally {
    await lan.stop();
  }
});
