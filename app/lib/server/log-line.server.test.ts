import { describe, expect, it } from "vitest";
import { formatEntry, hideSecrets, setLogSecrets } from "./log-line.server";

const now = new Date("2026-03-01T10:00:00.000Z");

describe("log entries", () => {
  it("text: the level first, one line, control characters escaped", () => {
    expect(formatEntry("text", "warn", ["[mail] line one\nline two"], {}, now)).toBe("WARN [mail] line one\\nline two");
  });

  it("json: one object a line with time, level, area, message and fields; an error's stack in fields", () => {
    const line = formatEntry("json", "error", ["[http] GET /x failed", new Error("boom\nsecond line")], {}, now);
    expect(line).not.toContain("\n");
    const entry = JSON.parse(line);
    expect(Object.keys(entry)).toEqual(["time", "level", "area", "message", "fields"]);
    expect(entry).toMatchObject({ time: now.toISOString(), level: "error", area: "http", message: "GET /x failed", fields: { error: { name: "Error", message: "boom\nsecond line" } } });
    expect(JSON.parse(formatEntry("json", "info", ["no area here"], { a: 1 }, now))).toMatchObject({ area: "", message: "no area here", fields: { a: 1 } });
  });

  it("never shows a configured secret or an email address, plain or percent-encoded", () => {
    setLogSecrets(["cbsecret0123456789", undefined]);
    expect(hideSecrets("POST /api/pay/c2b/confirmation/cbsecret0123456789 for jane@example.org and /badges/x/jane%40example.org")).toBe(
      "POST /api/pay/c2b/confirmation/[secret] for [address] and /badges/x/[address]",
    );
    expect(formatEntry("json", "info", ["[x] jane.w@example.co.ke"], {}, now)).toContain('"message":"[address]"');
    setLogSecrets([]);
  });
});
