import { describe, expect, it } from "vitest";
import { formatDateInWords, formatNairobiTime, formatNairobiTimeEat } from "./nairobi-time";

describe("Nairobi time", () => {
  it("shows a UTC time three hours on, day first, 24-hour clock", () => {
    expect(formatNairobiTime("2026-11-21T11:05:00.000Z")).toBe("21 Nov 2026, 14:05");
    expect(formatNairobiTimeEat("2026-11-21T11:05:00.000Z")).toBe("21 Nov 2026, 14:05 EAT");
  });

  it("moves to the next day after 21:00 UTC", () => {
    expect(formatNairobiTime("2026-01-02T21:05:00Z")).toBe("3 Jan 2026, 00:05");
    expect(formatNairobiTimeEat("2025-12-31T22:30:00Z")).toBe("1 Jan 2026, 01:30 EAT");
  });

  it.each([null, undefined, "", "not a date", "2026-13-45T99:00:00Z"])("shows nothing for %j", (iso) => {
    expect(formatNairobiTime(iso)).toBe("");
    expect(formatNairobiTimeEat(iso)).toBe("");
  });
});

describe("dates in words (emails)", () => {
  it("writes a plain date and a UTC time as the Nairobi calendar day, month in full", () => {
    expect(formatDateInWords("2025-10-17")).toBe("17 October 2025");
    expect(formatDateInWords("2025-12-31T22:30:00Z")).toBe("1 January 2026");
    expect(formatDateInWords("2026-03-01T20:59:00Z")).toBe("1 March 2026");
  });

  it("gives nothing for nothing or for unreadable text", () => {
    expect(formatDateInWords("")).toBe("");
    expect(formatDateInWords(null)).toBe("");
    expect(formatDateInWords("soon")).toBe("");
  });
});
