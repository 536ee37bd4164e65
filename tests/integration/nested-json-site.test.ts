import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSON_TOO_DEEP } from "~/lib/bounded-json";
import { builtSite } from "../support/outage";
import { testDatabaseKind } from "../support/reset";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * Three 4 MB bodies of the shape {"name":[[[…]]]} (2,000,000 deep) posted at once to the badge
 * API of a running site while /about is asked for ten times, 100 ms apart. Structurally: each
 * body is refused for its depth (measured as it arrives, never handed to JSON.parse), so the
 * pages are not held behind them. The bound on /about is generous (this machine is shared);
 * on a quiet one every answer takes a few milliseconds.
 */

function get(port: number, path: string) {
  return new Promise<number>((resolve) => {
    const started = performance.now();
    http.get({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(performance.now() - started));
    });
  });
}

function post(port: number, origin: string, body: Buffer) {
  return new Promise<{ status: number; text: string }>((resolve) => {
    const req = http.request(
      { host: "127.0.0.1", port, path: "/api/badge_orders.php", method: "POST", agent: false, headers: { "content-type": "application/json", "content-length": body.length, origin } },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", () => resolve({ status: 0, text: "" }));
    req.end(body);
  });
}

describe.runIf(testDatabaseKind === "sqlite")("hostile nested JSON bodies under a running site", () => {
  let site: SiteProcess | undefined;

  beforeAll(async () => {
    builtSite();
    site = await startSiteProcess("nested-json-site");
  }, 150_000);

  afterAll(async () => {
    await site?.stop();
  });

  it("are each refused for their depth, and /about keeps answering", async () => {
    const port = site!.port;
    const origin = `http://127.0.0.1:${port}`;
    // The site warmed up (its first page, the badge renderer's fonts) before the bodies come.
    for (let i = 0; i < 3; i++) await get(port, "/about");
    await new Promise((r) => setTimeout(r, 3_000));
    const depth = 2_000_000;
    const body = Buffer.from(`{"name":${"[".repeat(depth)}${"]".repeat(depth)}}`);
    const posts = Array.from({ length: 3 }, () => post(port, origin, body));
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      times.push(Math.round(await get(port, "/about")));
      await new Promise((r) => setTimeout(r, 100));
    }
    const answers = await Promise.all(posts);
    for (const a of answers) {
      expect(a.status).toBe(400);
      expect(JSON.parse(a.text)).toEqual({ ok: false, error: JSON_TOO_DEEP });
    }
    expect(Math.max(...times), `GET /about took ${times.join(", ")} ms`).toBeLessThan(1_000);
    expect(site!.output()).not.toMatch(/uncaught exception|exited with code/);
  }, 60_000);
});
