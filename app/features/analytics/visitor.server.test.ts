import { describe, expect, it } from "vitest";
import { clientIdFor, dailyVisitorId } from "./visitor.server";

const DAY1 = Date.parse("2026-03-15T08:00:00Z");
const LATER_DAY1 = Date.parse("2026-03-15T23:59:59Z");
const DAY2 = Date.parse("2026-03-16T00:00:01Z");
const UA = "Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile";

describe("the daily visitor hash (events without a client id)", () => {
  it("is the same for one address and browser all day, 32 hex characters, and not the address", () => {
    const a = dailyVisitorId("203.0.113.9", UA, DAY1);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(dailyVisitorId("203.0.113.9", UA, LATER_DAY1)).toBe(a);
    expect(a).not.toContain("203.0.113.9");
    expect(a).not.toContain(Buffer.from("203.0.113.9").toString("hex").slice(0, 16));
  });

  it("differs for another address or browser, and changes the next day", () => {
    const a = dailyVisitorId("203.0.113.9", UA, DAY1);
    expect(dailyVisitorId("203.0.113.10", UA, DAY1)).not.toBe(a);
    expect(dailyVisitorId("203.0.113.9", "curl/8", DAY1)).not.toBe(a);
    const next = dailyVisitorId("203.0.113.9", UA, DAY2);
    expect(next).not.toBe(a);
    expect(dailyVisitorId("203.0.113.9", UA, DAY2 + 1000)).toBe(next);
  });

  it("is used only when the browser sends no id of its own", () => {
    const req = (headers: Record<string, string>) => new Headers({ "user-agent": UA, ...headers });
    expect(clientIdFor(req({ "x-client-id": "abcdef0123456789" }), "203.0.113.9", "bodycid01", DAY1)).toBe("abcdef0123456789");
    expect(clientIdFor(req({ cookie: "cid=cookiecid0001" }), "203.0.113.9", undefined, DAY1)).toBe("cookiecid0001");
    expect(clientIdFor(req({}), "203.0.113.9", "bodycid01", DAY1)).toBe("bodycid01");
    expect(clientIdFor(req({}), "203.0.113.9", undefined, DAY1)).toBe(dailyVisitorId("203.0.113.9", UA, DAY1));
  });
});
