import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startDarajaFake } from "../../../tests/support/daraja-fake.mjs";
import type { StkConfig } from "~/lib/server/daraja-env.server";
import { DarajaUnavailable, darajaPassword, darajaTimestamp, forgetDarajaTokensForTests, setDarajaTimeoutForTests, stkPush, stkQuery } from "./daraja-client.server";

let fake: Awaited<ReturnType<typeof startDarajaFake>>;
let config: StkConfig;

beforeAll(async () => {
  fake = await startDarajaFake();
  config = {
    consumerKey: fake.consumerKey,
    consumerSecret: fake.consumerSecret,
    passkey: fake.passkey,
    baseUrl: fake.url,
    shortcode: "880100",
    type: "paybill",
    callbackUrl: "http://127.0.0.1:9/api/pay/stk/a-secret-long-enough",
  };
});
afterAll(() => fake.close());
afterEach(() => {
  fake.set({ push: "ok" });
  setDarajaTimeoutForTests(null);
  forgetDarajaTokensForTests();
});

const push = (c = config) => stkPush(c, { phone: "254712345678", amount: 1300, accountReference: "BO-ABC123", description: "Badge order" });

describe("the Daraja client", () => {
  it("stamps Nairobi time and builds the password as base64(shortcode + passkey + timestamp)", () => {
    const at = new Date("2026-11-28T21:05:09Z");
    expect(darajaTimestamp(at)).toBe("20261129000509");
    expect(Buffer.from(darajaPassword("880100", "pk", "20261129000509"), "base64").toString()).toBe("880100pk20261129000509");
  });

  it("sends a push the fake accepts, and reuses one token for many calls", async () => {
    const before = fake.state.tokensIssued;
    const answers = await Promise.all([push(), push(), push()]);
    for (const a of answers) expect(a).toMatchObject({ sent: true, checkoutRequestId: expect.stringMatching(/^ws_CO_/) });
    const last = fake.latest("BO-ABC123")!;
    expect(last).toMatchObject({ amount: 1300, phone: "254712345678", type: "CustomerPayBillOnline", shortcode: "880100" });
    const q = await stkQuery(config, last.checkoutRequestId);
    expect(q.kind).toBe("pending");
    expect(fake.state.tokensIssued - before).toBe(1);
    expect(fake.state.refused).toEqual([]);
  });

  it("a till pushes CustomerBuyGoodsOnline", async () => {
    await push({ ...config, type: "till" });
    expect(fake.latest()!.type).toBe("CustomerBuyGoodsOnline");
  });

  it("a wrong passkey is refused by the fake as Daraja does (no prompt)", async () => {
    const a = await push({ ...config, passkey: "not-the-passkey" });
    expect(a).toMatchObject({ sent: false, description: "Bad Request - Invalid Password" });
  });

  it("Daraja answering 500 is 'unavailable'", async () => {
    fake.set({ push: "500" });
    await expect(push()).rejects.toBeInstanceOf(DarajaUnavailable);
  });

  it("a push that hangs is cut at the time limit", async () => {
    setDarajaTimeoutForTests(300);
    await push(); // the token, before the push hangs
    fake.set({ push: "hang" });
    const started = Date.now();
    await expect(push()).rejects.toThrow(/no answer within/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("the query tells a settled prompt's ResultCode", async () => {
    const a = await push();
    if (!a.sent) throw new Error("not sent");
    await fake.answer(a.checkoutRequestId, 1032);
    expect(await stkQuery(config, a.checkoutRequestId)).toEqual({ kind: "result", resultCode: "1032", resultDesc: "Request cancelled by user" });
  });

  it("a token Daraja answers with HTTP 404 '404.001.03 Invalid Access Token' is dropped and fetched again once, for pushes and queries", async () => {
    const first = await push();
    if (!first.sent) throw new Error("not sent");
    const before = fake.state.tokensIssued;
    fake.expireTokens();
    expect(await push()).toMatchObject({ sent: true });
    expect(fake.state.tokensIssued - before).toBe(1);
    fake.expireTokens();
    expect(await stkQuery(config, first.checkoutRequestId)).toEqual({ kind: "pending", description: "The transaction is being processed" });
    expect(fake.state.tokensIssued - before).toBe(2);
    expect(fake.state.refused.filter((r) => r === "Invalid Access Token")).toHaveLength(2);
  });

  it("a push whose answer never came may be on the phone; a refused connection sent nothing", async () => {
    setDarajaTimeoutForTests(300);
    await push();
    fake.set({ push: "hang" });
    await expect(push()).rejects.toMatchObject({ maybeActed: true });
    await expect(push({ ...config, baseUrl: "http://127.0.0.1:53698" })).rejects.toMatchObject({ maybeActed: false });
  });
});
