import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "~/lib/server/env.server";
import * as badgeOrdersApi from "~/routes/api/badge-orders";
import * as eventRoute from "~/routes/event/event";
import { sendResponse, toFetchRequest } from "~/server/edge";
import { bandColour, cameraPhoto } from "../support/camera-photo";
import { ORIGIN, args, reply } from "../support/http";
import { currentTestDb, freshApp } from "../support/reset";
import { readStored } from "../support/stored-files";

// A phone's photo sent with the order form without JavaScript (streamed to disk, up to 25 MB),
// and bodies too large for a route answered so that the client can read the answer.

const MB = 1_000_000;
const SENTENCE = (mb: number) =>
  `Your photo is ${mb} MB; the limit is 25 MB. Choose a smaller photo, or send the order without one and reply to our email with it.`;

beforeEach(async () => {
  await freshApp();
});

/** The order form as a browser sends it, the photo among the fields (some come after it). */
function orderForm(photo: { name: string; mimeType: string; buffer: Buffer }, email: string) {
  const form = new FormData();
  form.append("intent", "order");
  form.append("tierKey", "t3");
  form.append("name", "Photo Supporter");
  form.append("email", email);
  form.append("paymentReference", `QP${Date.now().toString(36).toUpperCase().slice(-8)}`);
  form.append("portrait", new Blob([new Uint8Array(photo.buffer)], { type: photo.mimeType }), photo.name);
  form.append("notes", "Typed after choosing the photo.");
  form.append("showOnWall", "on");
  return new Request(`${ORIGIN}/event?tier=t3`, { method: "POST", body: form, headers: { Origin: ORIGIN } });
}

const ordersOf = (email: string) => currentTestDb().selectFrom("badge_orders").selectAll().where("email", "=", email).execute();

describe("POST /event: a photo as the phone saved it, without JavaScript", () => {
  it("a 10 MB 4000x3000 JPEG gives an order with a 720x720 JPEG portrait under 150 kB, turned upright by its EXIF", async () => {
    const photo = await cameraPhoto();
    expect(photo.buffer.length).toBeGreaterThan(9 * MB);
    const r = reply(await eventRoute.action(args(orderForm(photo, "ten@example.com"), "10.7.0.1")));
    expect(r.data, JSON.stringify(r.data)).toMatchObject({ status: "success", intent: "order" });
    const [order] = await ordersOf("ten@example.com");
    expect(order).toMatchObject({ portrait_file: "portrait.jpg", notes: "Typed after choosing the photo." });
    const stored = (await readStored(`badge-orders/${order!.id}/portrait.jpg`))!;
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 720, 720]);
    expect(stored.length).toBeLessThan(150_000);
    // Upright: the red half of the scene on top, the blue below.
    const [top, bottom] = [await bandColour(stored, "top"), await bandColour(stored, "bottom")];
    expect(top[0]!, `top ${top}`).toBeGreaterThan(top[2]! + 80);
    expect(bottom[2]!, `bottom ${bottom}`).toBeGreaterThan(bottom[0]! + 80);
    // Nothing of the original is left in the temporary folder.
    expect(fs.readdirSync(path.join(env().dataDir, "uploads"))).toEqual([]);
  }, 60_000);

  it("a 30 MB photo gets the sentence with its real size, every field kept, and no order", async () => {
    const photo = { name: "IMG_big.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(30_400_000, 7) };
    const r = reply(await eventRoute.action(args(orderForm(photo, "thirty@example.com"), "10.7.0.2")));
    expect(r.status).toBe(413);
    expect(r.data).toMatchObject({
      status: "error",
      intent: "order",
      fieldErrors: { portrait: [SENTENCE(30)] },
      values: {
        name: "Photo Supporter",
        email: "thirty@example.com",
        tierKey: "t3",
        notes: "Typed after choosing the photo.",
        showOnWall: "on",
        portrait: "sent",
      },
    });
    expect(await ordersOf("thirty@example.com")).toEqual([]);
    expect(fs.readdirSync(path.join(env().dataDir, "uploads"))).toEqual([]);
  });
});

describe("a body too large for its route gets an answer the client can read", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    // The site's own edge (node:http to a fetch Request and back) in front of the route.
    server = http.createServer((req, res) => {
      const request = toFetchRequest(req, new URL(req.url!, ORIGIN))!;
      void Promise.resolve(badgeOrdersApi.action(args(request, "10.7.1.1"))).then((response: Response) => sendResponse(req, res, response));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("a 9 MB JSON body to /api/badge_orders.php: a 413 JSON with a sentence, not a reset connection", async () => {
    const body = Buffer.alloc(9 * 1024 * 1024, "A");
    const outcome = await new Promise<{ status?: number; type?: string; text?: string; error?: string }>((resolve) => {
      let answer: { status?: number; type?: string; text?: string } = {};
      const req = http.request(
        { host: "127.0.0.1", port, path: "/api/badge_orders.php", method: "POST", headers: { "Content-Type": "application/json", "Content-Length": body.length } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d) => (text += d));
          res.on("end", () => {
            answer = { status: res.statusCode, type: res.headers["content-type"], text };
            // A reset that follows the answer shows as an error on the request: wait for it.
            setTimeout(() => resolve(answer), 200);
          });
        },
      );
      req.on("error", (e: NodeJS.ErrnoException) => resolve({ ...answer, error: e.code ?? e.message }));
      req.end(body);
    });
    expect(outcome.error, "the upload was not cut off").toBeUndefined();
    expect(outcome.status).toBe(413);
    expect(outcome.type).toMatch(/^application\/json/);
    expect(JSON.parse(outcome.text!)).toEqual({ ok: false, error: "Request body is too large." });
  });
});
