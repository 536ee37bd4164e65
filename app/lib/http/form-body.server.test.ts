import { describe, expect, it } from "vitest";
import { JSON_TOO_MANY } from "../core/bounded-json";
import { FORM_MAX_FIELDS, readUrlEncodedBody, UrlEncodedDecoder } from "./form-body.server";
import { HttpError } from "../core/http-error";

/** `text` fed in pieces cut at `cuts`, as a socket may give it. */
function decodeInPieces(text: string, cuts: number[]) {
  const bytes = Buffer.from(text);
  const decoder = new UrlEncodedDecoder(1_000_000);
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    decoder.feed(bytes.subarray(at, Math.max(at, cut)));
    at = Math.max(at, cut);
  }
  return decoder.end();
}

/** A request whose body arrives in pieces of `piece` bytes. */
function requestOf(body: string, piece = 65_536, headers: Record<string, string> = {}) {
  const bytes = Buffer.from(body);
  let at = 0;
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls += 1;
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + piece));
      at += piece;
    },
  });
  const request = new Request("http://site.test/api", {
    method: "POST",
    body: stream,
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    duplex: "half",
  } as RequestInit);
  return { request, pulls: () => pulls, read: () => at };
}

describe("urlencoded bodies decoded as they arrive", () => {
  it("decode exactly as URLSearchParams does, however the bytes are cut", () => {
    const samples = [
      "",
      "a=1&b=2",
      "a=1&a=2&&&b",
      "=x&y=&z",
      "name=Wanjiku+Kamau&note=caf%C3%A9%20%26%20chai&sum=1%2B1%3D2",
      "bad=%zz%4&pct=%&tail=%4",
      "x=%41%42%4%",
      "emoji=%F0%9F%98%80&broken=%F0%9F&raw=ümlaut+ok",
      "eq=a=b=c&plus=%2B+",
      "%3D=%26&k%20ey=v",
    ];
    for (const text of samples) {
      const expected = [...new URLSearchParams(text)];
      for (let cut = 0; cut <= Buffer.byteLength(text); cut++) {
        expect(decodeInPieces(text, [cut]), `${text} cut at ${cut}`).toEqual(expected);
        expect(decodeInPieces(text, [cut, cut + 1, cut + 2]), `${text} cut at ${cut}..${cut + 2}`).toEqual(expected);
      }
    }
  });

  it("reads a form body into its fields, the last of repeated names", async () => {
    const { request } = requestOf("name=Achieng&tier=Gold&name=Akinyi", 3);
    expect(await readUrlEncodedBody(request, 1024)).toEqual({ name: "Akinyi", tier: "Gold" });
  });

  it("refuses a body with too many fields at the piece that shows it, without reading the rest", async () => {
    const body = "a=&".repeat(2_700_000);
    const { request, read } = requestOf(body, 16_384);
    const refused = await readUrlEncodedBody(request, 9_000_000).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(400);
    expect((refused as HttpError).message).toBe(JSON_TOO_MANY);
    expect(read()).toBeLessThanOrEqual(16_384);
    expect(FORM_MAX_FIELDS * 3).toBeLessThan(16_384);
  });

  it("refuses a body over its size (413) as it arrives", async () => {
    const { request, read } = requestOf(`v=${"+".repeat(2_000_000)}`, 65_536);
    const refused = await readUrlEncodedBody(request, 100_000).catch((e: unknown) => e);
    expect((refused as HttpError).status).toBe(413);
    expect(read()).toBeLessThan(200_000);
  });

  it("decodes a large field a piece at a time (eight megabytes of '+', which URLSearchParams took seconds over)", async () => {
    const { request, pulls } = requestOf(`v=${"+".repeat(8_000_000)}`);
    const fields = await readUrlEncodedBody(request, 9_000_000);
    expect(fields.v).toBe(" ".repeat(8_000_000));
    expect(pulls()).toBeGreaterThan(100);
  });
});
