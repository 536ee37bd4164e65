import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cameraPhoto } from "../support/camera-photo";
import { builtSite } from "../support/outage";
import { testDatabaseKind } from "../support/reset";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * Eight connections from one address each declare a 300 kB order photo and then send a byte
 * every 5 s (the body never arrives). Meanwhile a supporter on another address orders with a
 * photo: the order is taken, not refused as 'receiving many pictures'. One address holds at most
 * 2 large-body slots (the rest of its uploads are told to wait, at once), and a body that sends
 * under 1 kB in 10 s is cut with 408, freeing its slot. The site runs as `npm start` does.
 */

type Slow = { status: () => number | null; closedAt: () => number; socket: net.Socket };

function slowUpload(port: number, origin: string): Slow {
  const socket = net.connect({ port, host: "127.0.0.1", localAddress: "127.0.0.1" });
  let text = "";
  let closedAt = 0;
  const boundary = "----slowboundary";
  socket.on("data", (c) => (text += c.toString("latin1")));
  socket.on("close", () => (closedAt = Date.now()));
  socket.on("error", () => {});
  socket.on("connect", () => {
    socket.write(
      `POST /event?tier=t3 HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nOrigin: ${origin}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 300000\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\norder\r\n`,
    );
    const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write("x")), 5_000);
    socket.on("close", () => clearInterval(drip));
  });
  return { status: () => (/^HTTP\/1\.1 (\d{3})/.exec(text) ? Number(/^HTTP\/1\.1 (\d{3})/.exec(text)![1]) : null), closedAt: () => closedAt, socket };
}

/** The event page's order form with a photo, as a browser without JavaScript sends it, from 127.0.0.2. */
async function photoOrder(port: number, origin: string, photo: Buffer): Promise<{ status: number; body: string }> {
  const form = new FormData();
  form.append("intent", "order");
  form.append("tierKey", "t3");
  form.append("name", "Photo Supporter");
  form.append("email", "photo@example.org");
  form.append("paymentReference", `QS${Date.now().toString(36).toUpperCase().slice(-8)}`);
  form.append("portrait", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "me.jpg");
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        localAddress: "127.0.0.2",
        method: "POST",
        path: "/event?tier=t3",
        agent: false,
        headers: { "Content-Type": encoded.headers.get("content-type")!, "Content-Length": body.length, Origin: origin, Host: new URL(origin).host },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", (e) => resolve({ status: 0, body: String(e) }));
    req.end(body);
  });
}

describe.runIf(testDatabaseKind === "sqlite")("slow uploads from one address", () => {
  let site: SiteProcess | undefined;
  let origin = "";

  beforeAll(async () => {
    builtSite();
    site = await startSiteProcess("slow-uploads");
    origin = `http://127.0.0.1:${site.port}`;
  }, 150_000);

  afterAll(async () => {
    await site?.stop();
  });

  it("do not keep another address's photo order out, and are cut with 408", async () => {
    const photo = (await cameraPhoto({ width: 1200, height: 900, noise: 60 })).buffer;
    expect(photo.length).toBeGreaterThan(256 * 1024);
    const started = Date.now();
    const slow = Array.from({ length: 8 }, () => slowUpload(site!.port, origin));
    await new Promise((r) => setTimeout(r, 1_500));

    const answer = await photoOrder(site!.port, origin, photo);
    expect(answer.status, answer.body.slice(0, 300)).toBeGreaterThanOrEqual(200);
    expect(answer.status, answer.body.slice(0, 300)).toBeLessThan(400);
    expect(answer.body).not.toContain("receiving many pictures");

    // The two admitted trickles are cut within two windows of 10 s.
    while (slow.some((s) => !s.closedAt()) && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 250));
    // Two of that address's uploads were admitted, then cut; the other six told to wait (429).
    expect(slow.filter((s) => s.status() === 429).length).toBe(6);
    const held = slow.filter((s) => s.status() !== 429);
    expect(held.map((s) => s.status())).toEqual([408, 408]);
    for (const s of slow) expect(s.closedAt(), "closed by the site").toBeGreaterThan(0);
    for (const s of slow) s.socket.destroy();
  }, 60_000);
});
