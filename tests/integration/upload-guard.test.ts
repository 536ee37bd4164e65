import { beforeEach, describe, expect, it } from "vitest";
import { BODY_BYTES_RULE, BUSY_RECEIVING, LARGE_BODIES_AT_ONCE, largeBodiesInFlight } from "~/lib/http/upload-guard.server";
import * as badgeOrdersApi from "~/routes/api/badge-orders";
import * as eventRoute from "~/routes/event/event";
import { ORIGIN, args, readJson, reply, type ApiError } from "../support/http";
import { freshApp } from "../support/reset";

// Large bodies from the public are counted and capped before a byte is read (issue: cheap ways
// to exhaust the server). Each body here is a stream that records whether anyone read it.

const URL_ = "/api/badge_orders.php";
const MB = 1024 * 1024;

type Probe = { request: Request; wasRead: () => boolean; finish: () => void };

/** A POST whose body says `declared` bytes and is only produced when someone reads it. */
function probeRequest(path: string, declared: number, headers: Record<string, string> = {}, type = "application/json"): Probe {
  let read = false;
  let finish = () => {};
  const done = new Promise<void>((r) => (finish = r));
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      read = true;
      await done;
      controller.enqueue(new TextEncoder().encode("{}"));
      controller.close();
    },
  }, { highWaterMark: 0 });
  const request = new Request(ORIGIN + path, {
    method: "POST",
    body,
    headers: { "content-type": type, "content-length": String(declared), ...headers },
    // @ts-expect-error Node's fetch needs this for a streamed body.
    duplex: "half",
  });
  return { request, wasRead: () => read, finish };
}

beforeEach(async () => {
  await freshApp();
});

async function expectError(res: Response, status: number) {
  const { body } = await readJson<ApiError>(res);
  expect(res.status).toBe(status);
  expect(body.ok).toBe(false);
  return body.error;
}

describe("POST /api/badge_orders.php: the body is judged before it is read", () => {
  it("a wrong X-Admin-Key with an 11 MB body is a 401 and the body is never read", async () => {
    const p = probeRequest(URL_, 11 * MB, { "X-Admin-Key": "wrong-key-0123456789" });
    const res = await badgeOrdersApi.action(args(p.request, "10.9.0.1"));
    await expectError(res, 401);
    expect(p.wasRead()).toBe(false);
    p.finish();
  });

  it("the public may not send 11 MB: a 413 before reading", async () => {
    const p = probeRequest(URL_, 11 * MB);
    const res = await badgeOrdersApi.action(args(p.request, "10.9.0.2"));
    expect(await expectError(res, 413)).toBe("Request body is too large.");
    expect(p.wasRead()).toBe(false);
    p.finish();
  });

  it("one address may send only so many bytes in large bodies; refused ones are counted and never read", async () => {
    const address = "10.9.0.3";
    const perBody = 8 * MB;
    const allowed = Math.floor(BODY_BYTES_RULE.points / perBody);
    for (let i = 0; i < allowed; i += 1) {
      const p = probeRequest(URL_, perBody);
      p.finish();
      const res = await badgeOrdersApi.action(args(p.request, address));
      expect(res.status, `body ${i + 1}`).not.toBe(429);
    }
    const over = probeRequest(URL_, perBody);
    const res = await badgeOrdersApi.action(args(over.request, address));
    expect(await expectError(res, 429)).toMatch(/^Too many attempts from your connection/);
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(over.wasRead()).toBe(false);
    over.finish();
    // Another address is not held back by this one.
    const other = probeRequest(URL_, perBody);
    other.finish();
    expect((await badgeOrdersApi.action(args(other.request, "10.9.0.4"))).status).not.toBe(429);
  });

  it(`only ${LARGE_BODIES_AT_ONCE} large public bodies are read at once; the next is a 503 with Retry-After, unread`, async () => {
    const slow = Array.from({ length: LARGE_BODIES_AT_ONCE }, () => probeRequest(URL_, 2 * MB));
    const pending = slow.map((p, i) => badgeOrdersApi.action(args(p.request, `10.9.1.${i}`)));
    await new Promise((r) => setTimeout(r, 50));
    expect(largeBodiesInFlight()).toBe(LARGE_BODIES_AT_ONCE);

    const extra = probeRequest(URL_, 2 * MB);
    const res = await badgeOrdersApi.action(args(extra.request, "10.9.2.1"));
    expect(await expectError(res, 503)).toBe(BUSY_RECEIVING);
    expect(res.headers.get("Retry-After")).toBe("5");
    expect(extra.wasRead()).toBe(false);

    for (const p of slow) p.finish();
    await Promise.all(pending);
    expect(largeBodiesInFlight()).toBe(0);
    // Small bodies (no portrait) never wait for a slot.
    const small = probeRequest(URL_, 2_000);
    small.finish();
    expect((await badgeOrdersApi.action(args(small.request, "10.9.2.2"))).status).toBe(400);
  });
});

describe("POST /event with a portrait: admitted before it is read", () => {
  it("an upload declaring more than the form's limit gets the page's error reply, with the photo's size, unread", async () => {
    const p = probeRequest("/event", 80 * MB, { Origin: ORIGIN }, "multipart/form-data; boundary=x");
    const r = reply(await eventRoute.action(args(p.request, "10.9.3.1")));
    expect(r.status).toBe(413);
    expect(r.data).toMatchObject({
      status: "error",
      intent: "order",
      fieldErrors: {
        portrait: ["Your photo is 84 MB; the limit is 25 MB. Choose a smaller photo, or send the order without one and reply to our email with it."],
      },
    });
    expect(p.wasRead()).toBe(false);
    p.finish();
  });
});
