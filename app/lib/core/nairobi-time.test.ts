import { describe, expect, it } from "vitest";
import { formatDateInWords, formatNairobiDayAt, formatNairobiTime, formatNairobiTimeEat, nairobiInstant } from "./nairobi-time";

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

describe("Nairobi calendar days and payment times", () => {
  it("reads a Nairobi day as the instant it begins, or its clock time", () => {
    expect(nairobiInstant("2026-12-05").toISOString()).toBe("2026-12-04T21:00:00.000Z");
    expect(nairobiInstant("2026-12-05", "18:30").toISOString()).toBe("2026-12-05T15:30:00.000Z");
    expect(Number.isNaN(nairobiInstant("soon").getTime())).toBe(true);
  });

  it("says when a payment came in, day and clock time without the year", () => {
    expect(formatNairobiDayAt("2025-11-12T16:42:10Z")).toBe("12 Nov at 19:42");
    expect(formatNairobiDayAt("2025-12-31T22:30:00Z")).toBe("1 Jan at 01:30");
    expect(formatNairobiDayAt("not a date")).toBe("");
  });
});
