import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatDateInWords, formatNairobiClock, formatNairobiDayAt, formatNairobiTime } from "./nairobi-time";
import { dayInWordsUtc, dayWithWeekdayUtc, formatAmount, groupDigits, shortDayUtc } from "./plain-format";

// The hand-written text must read as Intl's en-GB / en-KE did, so nothing a reader or a test
// saw changes: compared here against Intl itself over many values.
describe("numbers and dates without Intl", () => {
  it("groups digits as en-KE does, decimals and signs included", () => {
    const values = [0, 1, 12, 999, 1000, 1500, 12345, 999999, 1000000, 1234567, 250000000, -1, -1234, 0.5, 1234.5, 1234.567, 99.999, 1e15];
    for (let i = 0; i < 500; i++) values.push(Math.floor(Math.random() * 10 ** (1 + (i % 12))));
    for (const v of values) expect(groupDigits(v), String(v)).toBe(v.toLocaleString("en-KE"));
    expect(formatAmount(1500)).toBe("KES 1,500");
    expect(formatAmount(25000, "USD")).toBe("USD 25,000");
  });

  it("writes Nairobi times and days as en-GB in Africa/Nairobi does, across years and midnights", () => {
    const dateTime = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Africa/Nairobi",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    const words = new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Nairobi", day: "numeric", month: "long", year: "numeric" });
    const clock = new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Nairobi", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    const start = Date.UTC(2020, 0, 1);
    for (let i = 0; i < 2000; i++) {
      // Every month of 15 years, at times that cross Nairobi's midnight (21:00 UTC).
      const d = new Date(start + i * 2.75 * 24 * 3600 * 1000 + (i % 24) * 3600 * 1000 + (i % 60) * 60 * 1000);
      const iso = d.toISOString();
      expect(formatNairobiTime(iso), iso).toBe(dateTime.format(d));
      expect(formatDateInWords(iso), iso).toBe(words.format(d));
      expect(formatNairobiClock(iso), iso).toBe(clock.format(d));
      const parts = Object.fromEntries(dateTime.formatToParts(d).map((p) => [p.type, p.value]));
      expect(formatNairobiDayAt(iso), iso).toBe(`${parts.day} ${parts.month} at ${parts.hour}:${parts.minute}`);
      expect(dayInWordsUtc(d), iso).toBe(
        new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(d),
      );
    }
  });

  it("writes the staff charts' UTC days as en-GB did ('21 Nov', 'Sat, 21 Nov 2026'), every weekday and month", () => {
    const short = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short" });
    const long = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", weekday: "short", day: "numeric", month: "short", year: "numeric" });
    for (let i = 0; i < 800; i++) {
      const d = new Date(Date.UTC(2024, 0, 1) + i * 24 * 3600 * 1000);
      const iso = d.toISOString();
      expect(shortDayUtc(d), iso).toBe(short.format(d));
      expect(dayWithWeekdayUtc(d), iso).toBe(long.format(d));
    }
  });

  it("is the one way the site's code writes numbers and dates: no Intl formatter or toLocale*String in app/", () => {
    const app = path.join(process.cwd(), "app");
    const offenders = (fs.readdirSync(app, { recursive: true }) as string[])
      .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !/\.test\.tsx?$/.test(f) && f !== path.join("lib", "core", "plain-format.ts"))
      .filter((f) => /\bIntl\.(NumberFormat|DateTimeFormat|RelativeTimeFormat)\b|\.toLocale(String|DateString|TimeString)\(/.test(fs.readFileSync(path.join(app, f), "utf8")));
    expect(offenders).toEqual([]);
  });
});
