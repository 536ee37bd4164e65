import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDarajaFake } from "../support/daraja-fake.mjs";
import { ADMIN_KEY } from "../support/e2e-env";
import { builtSite } from "../support/outage";
import { testDatabaseKind } from "../support/reset";
import { servingPids, startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * `npm start` with M-Pesa Express on: the server process is killed (SIGKILL) after it wrote the
 * prompt and asked Daraja, before Daraja's answer came. The supervisor starts a new process; the
 * payer's PIN callback then reaches a prompt whose CheckoutRequestID was never stored. The
 * receipt must not be lost: the order ends paid with exactly the money M-Pesa took, and one
 * prompt went out.
 */
describe.runIf(testDatabaseKind === "sqlite")("a server process killed in the middle of a push", () => {
  let fake: Awaited<ReturnType<typeof startDarajaFake>>;
  let site: SiteProcess | undefined;
  let origin = "";

  beforeAll(async () => {
    builtSite();
    fake = await startDarajaFake({ pushDelayMs: 60_000 });
    site = await startSiteProcess("stk-kill", {
      DARAJA_BASE_URL: fake.url,
      DARAJA_CONSUMER_KEY: fake.consumerKey,
      DARAJA_CONSUMER_SECRET: fake.consumerSecret,
      DARAJA_PASSKEY: fake.passkey,
      MPESA_CALLBACK_SECRET: "kill-test-callback-0123456789",
    });
    origin = `http://127.0.0.1:${site.port}`;
  }, 120_000);

  afterAll(async () => {
    await site?.stop();
    await fake?.close();
  });

  const until = async <T>(what: string, read: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await read();
      if (v !== undefined && v !== null && v !== false) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what} (${lastList})\n${site?.output().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  let lastList = "";
  const ordersList = async () => {
    const res = await fetch(`${origin}/api/badge_orders.php`, { headers: { "X-Admin-Key": ADMIN_KEY } });
    if (res.status !== 200) {
      lastList = `${res.status} ${(await res.text()).slice(0, 300)}`;
      return undefined;
    }
    return ((await res.json()) as { items: { id: string; amount: number; payment: { state: string; receivedAmount: number; stk?: { state: string } } }[] }).items;
  };

  it("the callback after the restart pays the order; nothing is lost and no second prompt goes out", async () => {
    // 'Pay now' from the JSON API; its answer never comes (the process dies while Daraja holds it).
    const placed = fetch(`${origin}/api/badge_orders.php`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ tierKey: "t3", name: "Wanjiru Kamau", email: "wanjiru.kill@example.org", phone: "0712 345 678", payWith: "stk" }),
    }).then(
      (r) => r.status,
      () => 0,
    );
    const push = await until("the push to reach Daraja", () => fake.latest());
    const [pid] = servingPids(site!.output());
    process.kill(pid!, "SIGKILL");
    expect(await placed).toBe(0);
    await until("a new server process", () => servingPids(site!.output()).length >= 2 || undefined);

    // The row was written before Daraja was asked: the order is there, its prompt not yet settled.
    const before = await until("the order list", ordersList);
    expect(before).toHaveLength(1);
    const order = before[0]!;
    expect(push.accountReference).toBe(order.id);
    expect(order.payment.state).not.toBe("verified");

    // The payer entered the PIN: M-Pesa's callback names a CheckoutRequestID the site never stored.
    const paid = await fake.answer(push.checkoutRequestId, "paid");
    expect(fake.state.callbacks.at(-1)).toMatchObject({ checkoutRequestId: push.checkoutRequestId, status: 200 });

    const after = await until("the order paid", async () => {
      const o = (await ordersList())?.find((x) => x.id === order.id);
      return o?.payment.state === "verified" ? o : undefined;
    });
    expect(after.payment).toMatchObject({ state: "verified", receivedAmount: order.amount });
    expect(after.payment.stk?.state).toBe("paid");
    // The receipt M-Pesa sent is the one the order holds.
    expect(JSON.stringify(after.payment)).toContain(paid.receipt);
    expect(fake.state.pushes).toHaveLength(1);
  }, 120_000);
});
