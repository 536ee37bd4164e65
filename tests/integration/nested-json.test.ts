import { beforeEach, describe, expect, it } from "vitest";
import * as badgeOrdersApi from "~/routes/api/badge-orders";
import * as merchOrdersApi from "~/routes/api/merch-orders";
import { JSON_TOO_DEEP } from "~/lib/core/bounded-json";
import { ORIGIN, args, readJson, type ApiError } from "../support/http";
import { freshApp } from "../support/reset";

// JSON bodies nested millions of levels deep held the event loop for seconds while JSON.parse
// walked them. Bodies are measured as they arrive: refused at the first piece that is too deep,
// the rest never read.

const nested = (bytes: number) => `{"id":${"[".repeat(Math.floor((bytes - 8) / 2))}${"]".repeat(Math.floor((bytes - 8) / 2))}}`;

/** A JSON POST whose body is handed over in 64 kB pieces as it is read; `read` counts them. */
function streamed(path: string, text: string) {
  const bytes = Buffer.from(text);
  let read = 0;
  let at = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        const piece = bytes.subarray(at, at + 65_536);
        at += piece.length;
        read += piece.length;
        controller.enqueue(new Uint8Array(piece));
      },
    },
    { highWaterMark: 0 },
  );
  // @ts-expect-error Node's fetch needs duplex for a streamed body.
  const request = new Request(ORIGIN + path, { method: "POST", body, headers: { "content-type": "application/json", "content-length": String(bytes.length) }, duplex: "half" });
  return { request, read: () => read };
}

beforeEach(async () => {
  await freshApp();
});

describe("deeply nested JSON bodies", () => {
  it("an 8 MB order body nested millions deep is a 400 with a sentence, after reading its first piece", async () => {
    const sent = streamed("/api/badge_orders.php", nested(8_000_000));
    const started = performance.now();
    const res = await badgeOrdersApi.action(args(sent.request, "10.25.1.1"));
    const { body } = await readJson<ApiError>(res);
    expect(res.status).toBe(400);
    expect(body).toEqual({ ok: false, error: JSON_TOO_DEEP });
    expect(sent.read()).toBeLessThanOrEqual(2 * 65_536);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("every JSON endpoint refuses nesting over 32 levels; 32 is read as usual", async () => {
    const deep = `{"email":"a@b.co","x":${"[".repeat(32)}${"]".repeat(32)}}`;
    const res = await merchOrdersApi.action(args(streamed("/api/merch_orders.php", deep).request, "10.25.1.2"));
    expect(res.status).toBe(400);
    expect((await readJson<ApiError>(res)).body.error).toBe(JSON_TOO_DEEP);
    const fine = `{"email":"a@b.co","x":${"[".repeat(30)}${"]".repeat(30)}}`;
    const ok = await merchOrdersApi.action(args(streamed("/api/merch_orders.php", fine).request, "10.25.1.3"));
    expect((await readJson<ApiError>(ok)).body.error ?? "").not.toBe(JSON_TOO_DEEP);
  });
});
