import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_ORIGIN_MESSAGE } from "~/server/canonical-origin";
import { builtSite } from "../support/outage";
import { testDatabaseKind } from "../support/reset";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * Behind a reverse proxy (TRUST_PROXY=on, PUBLIC_URL set) the host asked for is read from the
 * proxy's own hop of X-Forwarded-Host (the last value, as the address is X-Forwarded-For's
 * last), a canonical redirect is never kept by a shared cache, and a form another site sent is
 * refused with the 403 page even without an Origin header.
 */

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function ask(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, agent: false, headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe.runIf(testDatabaseKind === "sqlite")("forwarded host and cross-site forms behind a proxy", () => {
  let site: SiteProcess | undefined;
  let port = 0;
  let host = "";
  let origin = "";

  beforeAll(async () => {
    builtSite();
    site = await startSiteProcess("forwarded-host", { TRUST_PROXY: "on" });
    port = site.port;
    origin = `http://127.0.0.1:${port}`;
    host = `127.0.0.1:${port}`;
  }, 150_000);

  afterAll(async () => {
    await site?.stop();
  });

  it("reads X-Forwarded-Host from the proxy's hop, and redirects with Cache-Control: no-store", async () => {
    // The client wrote evil.example; the proxy appended the host it was asked for (the site's).
    const kept = await ask(port, "GET", "/about", { Host: host, "X-Forwarded-For": "203.0.113.9", "X-Forwarded-Host": `evil.example, ${host}` });
    expect(kept.status).toBe(200);
    // Asked by another name at the proxy: sent to PUBLIC_URL, and no cache may keep that answer.
    const moved = await ask(port, "GET", "/about", { Host: host, "X-Forwarded-For": "203.0.113.9", "X-Forwarded-Host": `${host}, www.other.example` });
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe(`${origin}/about`);
    expect(moved.headers["cache-control"]).toBe("no-store");
  });

  const subscribe = (headers: Record<string, string>) =>
    ask(
      port,
      "POST",
      "/newsletter",
      { Host: host, "X-Forwarded-Host": host, "X-Forwarded-For": "203.0.113.10", "Content-Type": "application/x-www-form-urlencoded", ...headers },
      new URLSearchParams({ email: "cross@example.org", source: "footer:/about", variant: "footer", website: "" }).toString(),
    );

  it("refuses a form whose browser says cross-site, or whose Referer is another origin when there is no Origin", async () => {
    const refused: Record<string, string>[] = [{ "Sec-Fetch-Site": "cross-site" }, { Referer: "http://evil.example/page" }, { "Sec-Fetch-Site": "cross-site", Origin: origin }];
    for (const headers of refused) {
      const r = await subscribe(headers);
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect(r.body).toContain(OTHER_ORIGIN_MESSAGE.replace("'", "&#39;"));
    }
    // From the site's own page it is taken.
    const own = await subscribe({ Referer: `${origin}/about`, "Sec-Fetch-Site": "same-origin" });
    expect(own.status).toBe(200);
  });
});
