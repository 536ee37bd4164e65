import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { noteLag, stopLoopWatch } from "~/lib/server/loop-watch.server";
import { activeWork, BUSY_TEXT, inTurns, PAGES_AT_ONCE, SHED_FROM_ACTIVE, shedIfBusy, Turns } from "./overload";

afterEach(() => stopLoopWatch());

/** Three samples of a held loop in a row, and work piling up: a load. */
let piled: (() => void) | undefined;
async function makeBusy() {
  [500, 500, 500].forEach((ms) => noteLag(ms));
  if (piled) return;
  // Requests the router is still working on.
  const handler = inTurns(() => new Promise<Response>((resolve) => (piled = () => resolve(new Response("")))));
  for (let i = 0; i < SHED_FROM_ACTIVE; i++) void handler(new Request("http://site.test/api/x", { method: "POST", body: "x" }), {});
  await new Promise((r) => setTimeout(r, 0));
}

/** What shedIfBusy wrote: status, headers and body. */
function answer(method: string, path: string, accept = "", length?: number, more: Record<string, string> = {}) {
  const out: { status?: number; headers: Record<string, string>; body?: string } = { headers: {} };
  const req = { method, headers: { accept, ...more, ...(length === undefined ? {} : { "content-length": String(length) }) } } as unknown as IncomingMessage;
  const res = {
    writeHead(status: number, headers: Record<string, string>) {
      out.status = status;
      out.headers = headers;
    },
    end(body?: string) {
      out.body = body;
    },
  } as unknown as ServerResponse;
  const shed = shedIfBusy(req, res, new URL(`http://site.test${path}`));
  return { shed, ...out };
}

describe("shedding while the event loop lags", () => {
  it("lets everything through when the loop is free, or when it lags over one heavy request", () => {
    expect(answer("POST", "/badges/verify", "", 300_000).shed).toBe(false);
    [500, 500, 500].forEach((ms) => noteLag(ms));
    expect(activeWork()).toBeLessThan(SHED_FROM_ACTIVE);
    expect(answer("GET", "/event/previews/image.png").shed, "a poster drawn after a poster").toBe(false);
  });

  it("answers new work 503 with Retry-After and a sentence: a page for browsers, JSON for the API", async () => {
    await makeBusy();
    const form = answer("POST", "/badges/verify", "text/html,application/xhtml+xml", 300_000);
    expect(form).toMatchObject({ shed: true, status: 503 });
    expect(Number(form.headers["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(form.headers.Connection).toBe("close");
    expect(form.headers["Cache-Control"]).toBe("no-store");
    expect(form.body).toContain(BUSY_TEXT);
    const api = answer("POST", "/api/badge_orders.php", "*/*", 8_000_000);
    expect(api.headers["Content-Type"]).toMatch(/^application\/json/);
    expect(JSON.parse(api.body!)).toEqual({ ok: false, error: BUSY_TEXT });
    const page = answer("GET", "/blogs?u=1");
    expect(page.status).toBe(503);
    expect(page.headers.Connection, "a GET's connection stays open").toBeUndefined();
  });

  it("never refuses small posts: forms, payment callbacks, door check-ins, orders without a portrait", async () => {
    await makeBusy();
    expect(answer("POST", "/api/pay/c2b/confirmation/secret", "*/*", 900).shed).toBe(false);
    expect(answer("POST", "/api/checkin.php", "*/*", 120).shed).toBe(false);
    expect(answer("POST", "/api/badge_orders.php", "*/*", 400).shed).toBe(false);
    expect(answer("GET", "/api/event_progress.php").shed).toBe(false);
    expect(answer("POST", "/newsletter", "text/html", 90).shed).toBe(false);
    expect(answer("POST", "/badges/verify", "text/html", 300_000).shed, "an upload is put off").toBe(true);
  });

  it("never refuses the pictures of a page already sent; the next page is put off", async () => {
    await makeBusy();
    // Chrome on Android asking for a thumbnail of /badges, with and without Sec-Fetch-Dest.
    const chromeImage = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
    expect(answer("GET", "/open/badges/v2251.png?w=256", chromeImage, undefined, { "sec-fetch-dest": "image" }).shed).toBe(false);
    expect(answer("GET", "/open/badges/v2251.png?w=256", chromeImage).shed, "an older browser with no Sec-Fetch-Dest").toBe(false);
    expect(answer("GET", "/event/previews/image.png", "image/webp,*/*").shed).toBe(false);
    const navigation = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
    expect(answer("GET", "/badges", navigation, undefined, { "sec-fetch-dest": "document" }).shed).toBe(true);
    expect(answer("GET", "/open/badges/v2251.png", navigation, undefined, { "sec-fetch-dest": "document" }).shed, "a picture opened as a page").toBe(true);
    expect(answer("GET", "/badges.data", "*/*", undefined, { "sec-fetch-dest": "empty" }).shed, "the next page's data").toBe(true);
  });
});

describe("pages drawn in turns", () => {
  it("lets two draw at once, the next in line as soon as one is done, in order", async () => {
    const turns = new Turns(2, 10, 5_000);
    const a = (await turns.take())!;
    const b = (await turns.take())!;
    const order: string[] = [];
    const c = turns.take().then((end) => (order.push("c"), end));
    const d = turns.take().then((end) => (order.push("d"), end));
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    expect(turns.waiting).toBe(2);
    a();
    a(); // Ending a turn twice frees it once.
    expect(await c).toBeTypeOf("function");
    expect(order).toEqual(["c"]);
    b();
    expect(await d).toBeTypeOf("function");
    expect(order).toEqual(["c", "d"]);
  });

  it("answers none when the line is full, after waiting too long, or once the visitor has gone", async () => {
    const turns = new Turns(1, 1, 50);
    const held = (await turns.take())!;
    const waiting = turns.take();
    expect(await turns.take(), "the line is full").toBeNull();
    expect(await waiting, "waited longer than allowed").toBeNull();
    const gone = new AbortController();
    const leaving = turns.take(gone.signal);
    gone.abort();
    expect(await leaving).toBeNull();
    expect(turns.waiting).toBe(0);
    held();
    expect(await turns.take()).toBeTypeOf("function");
  });

  it("a GET page waits its turn; posts and the JSON API never do; a page with no turn to be had is a 503", async () => {
    let drawing = 0;
    let most = 0;
    const handler = inTurns(async (request: Request) => {
      drawing += 1;
      most = Math.max(most, drawing);
      await new Promise((r) => setTimeout(r, 20));
      drawing -= 1;
      return new Response(request.method);
    });
    const get = (path: string) => handler(new Request(`http://site.test${path}`, { headers: { accept: "text/html" } }), {});
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => get(`/badges?q=${i}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(most).toBe(PAGES_AT_ONCE);
    most = 0;
    await Promise.all([...Array.from({ length: 4 }, () => get("/api/event_progress.php")), handler(new Request("http://site.test/join", { method: "POST", body: "x" }), {})]);
    expect(most).toBe(5);
  });
});
