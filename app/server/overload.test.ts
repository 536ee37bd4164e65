import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { noteLag, stopLoopWatch } from "~/lib/loop-watch.server";
import { BUSY_TEXT, shedIfBusy } from "./overload";

afterEach(() => stopLoopWatch());

/** Three samples of a held loop in a row: a load. */
const makeBusy = () => [500, 500, 500].forEach((ms) => noteLag(ms));

/** What shedIfBusy wrote: status, headers and body. */
function answer(method: string, path: string, accept = "", length?: number) {
  const out: { status?: number; headers: Record<string, string>; body?: string } = { headers: {} };
  const req = { method, headers: { accept, ...(length === undefined ? {} : { "content-length": String(length) }) } } as unknown as IncomingMessage;
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
  it("lets everything through when the loop is free", () => {
    expect(answer("POST", "/badges/verify").shed).toBe(false);
  });

  it("answers new work 503 with Retry-After and a sentence: a page for browsers, JSON for the API", () => {
    makeBusy();
    const form = answer("POST", "/badges/verify", "text/html,application/xhtml+xml");
    expect(form).toMatchObject({ shed: true, status: 503 });
    expect(Number(form.headers["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(form.headers.Connection).toBe("close");
    expect(form.headers["Cache-Control"]).toBe("no-store");
    expect(form.body).toContain(BUSY_TEXT);
    const api = answer("POST", "/api/badge_orders.php", "*/*", 8_000_000);
    expect(api.headers["Content-Type"]).toMatch(/^application\/json/);
    expect(JSON.parse(api.body!)).toEqual({ ok: false, error: BUSY_TEXT });
    expect(answer("GET", "/blogs?u=1").status).toBe(503);
  });

  it("never refuses the small JSON API calls: payment callbacks, door check-ins, orders without a portrait", () => {
    makeBusy();
    expect(answer("POST", "/api/pay/c2b/confirmation/secret", "*/*", 900).shed).toBe(false);
    expect(answer("POST", "/api/checkin.php", "*/*", 120).shed).toBe(false);
    expect(answer("POST", "/api/badge_orders.php", "*/*", 400).shed).toBe(false);
    expect(answer("GET", "/api/event_progress.php").shed).toBe(false);
  });
});
