import { beforeEach, describe, expect, it } from "vitest";
import { action } from "~/routes/badges/verify-upload";
import { bakePng } from "~/features/badge-art/bake.server";
import { env } from "~/lib/server/env.server";
import { FORM_UNREADABLE } from "~/lib/forms/submission.server";
import { seedTeamBadges } from "../../db/seed/team-badges";
import { plainKitPng } from "../support/kit-png";
import { freshApp } from "../support/reset";
import { args, ORIGIN } from "../support/http";

/** POST /badges/verify with a file, as the page's upload form sends it (a browser states the length). */
async function upload(bytes: Buffer, name = "badge.png") {
  const form = new FormData();
  form.set("badge", new File([new Uint8Array(bytes)], name, { type: "image/png" }));
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const type = encoded.headers.get("content-type")!;
  return new Request(`${ORIGIN}/badges/verify`, { method: "POST", body, headers: { Origin: ORIGIN, "content-type": type, "content-length": String(body.length) } });
}

async function answer(bytes: Buffer, address?: string) {
  return answerTo(await upload(bytes), address);
}

async function answerTo(request: Request, address?: string) {
  const res = (await action(args(request, address))) as Response | { data: { message: string }; init: { status: number; headers?: Record<string, string> } };
  if (res instanceof Response) return { status: res.status, location: res.headers.get("location"), message: "" };
  return { status: res.init.status, location: null, message: res.data.message, headers: res.init.headers };
}

beforeEach(async () => {
  const db = await freshApp();
  await seedTeamBadges(db);
});

describe("POST /badges/verify (a badge file)", () => {
  it("a baked PNG of ours goes on to its badge's verify page", async () => {
    const baked = bakePng(await plainKitPng(), `${env().publicUrl}/badges/assertions/b5692.json`);
    expect(await answer(baked)).toEqual({ status: 303, location: "/badges/verify/b5692", message: "" });
  });

  it("refuses, each with its own reason: not a PNG, no record, a forged record, an oversized file", async () => {
    expect(await answer(Buffer.from("%PDF-1.7 not a picture"))).toMatchObject({ status: 400, message: "That file is not a PNG image." });
    expect(await answer(await plainKitPng())).toMatchObject({ status: 400, message: expect.stringContaining("carries no badge record") });
    const forged = bakePng(await plainKitPng(), `${env().publicUrl}/badges/assertions/b9999.json`);
    expect(await answer(forged)).toMatchObject({ status: 400, message: "The badge record in that file does not point at a badge we issued." });
    const huge = Buffer.concat([await plainKitPng(), Buffer.alloc(7 * 1024 * 1024)]);
    expect(await answer(huge)).toMatchObject({ status: 413, message: "That file is larger than 6 MB: a badge PNG is far smaller." });
  });
});

describe("POST /badges/verify against a poisoned file", () => {
  it("a record of deeply nested JSON is refused at once, the rest of the file never read", async () => {
    const nested = `{"id":${"[".repeat(2_900_000)}${"]".repeat(2_900_000)}}`;
    const poisoned = bakePng(await plainKitPng(), nested);
    const sent = await upload(poisoned);
    // The same bytes, counted as the action reads them.
    const bytes = Buffer.from(await sent.arrayBuffer());
    let read = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 65_536) controller.enqueue(new Uint8Array(bytes.subarray(at, at + 65_536)));
        controller.close();
      },
      // Counted when handed over.
    });
    const counting = body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ transform: (c, ctl) => ((read += c.length), ctl.enqueue(c)) }), {});
    // @ts-expect-error Node's fetch needs duplex for a streamed body.
    const request = new Request(sent.url, { method: "POST", body: counting, headers: sent.headers, duplex: "half" });
    const started = performance.now();
    expect(await answerTo(request)).toMatchObject({ status: 400, message: "The badge record in that file is not one we could have made." });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(read, "bytes read of a 5.8 MB upload").toBeLessThan(1024 * 1024);
  });

  it("a record as a small JSON assertion is read; deeper than an assertion ever is, refused", async () => {
    const id = `${env().publicUrl}/badges/assertions/b5692.json`;
    expect(await answer(bakePng(await plainKitPng(), JSON.stringify({ "@context": "https://w3id.org/openbadges/v2", type: "Assertion", id })))).toMatchObject({ status: 303 });
    const deep = `{"id":"${id}","x":${"[".repeat(20)}${"]".repeat(20)}}`;
    expect(await answer(bakePng(await plainKitPng(), deep))).toMatchObject({ status: 400, message: "The badge record in that file is not one we could have made." });
  });

  it("a body that breaks off mid-file (a dropped connection) is a 400 with the form's message, not an error", async () => {
    const sent = await upload(await plainKitPng());
    const bytes = Buffer.from(await sent.arrayBuffer());
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(bytes.subarray(0, bytes.length >> 1)));
        controller.error(new Error("the connection was reset"));
      },
    });
    // @ts-expect-error Node's fetch needs duplex for a streamed body.
    const request = new Request(sent.url, { method: "POST", body, headers: sent.headers, duplex: "half" });
    expect(await answerTo(request)).toMatchObject({ status: 400, message: FORM_UNREADABLE });
  });

  it("an empty file input or a form without a file asks for the file", async () => {
    expect(await answer(Buffer.alloc(0))).toMatchObject({ status: 400, message: "Choose the badge's PNG file." });
    const plainForm = new Request(`${ORIGIN}/badges/verify`, { method: "POST", body: "badge=x", headers: { Origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" } });
    expect(await answerTo(plainForm)).toMatchObject({ status: 400, message: "Choose the badge's PNG file." });
  });

  it("one address may send 30 files in 10 minutes; the next is told when to come back", async () => {
    const png = await plainKitPng();
    for (let i = 0; i < 30; i++) expect((await answer(png, "10.25.0.1")).status).toBe(400);
    const over = await answer(png, "10.25.0.1");
    expect(over.status).toBe(429);
    expect(over.message).toMatch(/^Too many attempts from your connection\. Please try again in \d+ minutes?\.$/);
    expect(Number(over.headers?.["Retry-After"])).toBeGreaterThan(0);
    expect((await answer(png, "10.25.0.2")).status).toBe(400);
  });
});
