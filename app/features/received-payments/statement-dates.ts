import { nairobiToIso } from "./payment";

/**
 * Dates and times as statement files carry them: the portal's own text (`2026-11-26 17:10:00`,
 * `26-11-2026 17:10:00`), what Excel makes of them when it re-saves a CSV (`11/26/2026 17:10`,
 * `5:10:00 PM`), other spellings (`2026/11/26`, `26-Nov-2026`, ISO with a zone), and what an
 * `.xlsx` holds (a Date whose UTC fields are the wall clock, or a day serial). Times without a
 * zone are Nairobi wall-clock time.
 *
 * `11/5/2026` could be 11 May or 5 November: it is read only with the order the file's other
 * dates of the same style prove (`13/11/2026` is day/month, `11/26/2026` month/day), never
 * guessed. Each separator style is judged on its own evidence: a portal title line keeps its
 * `01-11-2026` while Excel rewrites the rows as `11/5/2026`.
 */
export type Cell = string | number | boolean | Date | null | undefined;
export type DateStyle = "/" | "-" | ".";
export type DayMonthOrder = "day/month" | "month/day";
export type DateOrders = Partial<Record<DateStyle, DayMonthOrder>>;

export type TimeRead =
  | { ok: true; iso: string; hasTime: boolean }
  | { ok: false; ambiguous?: { style: DateStyle; first: number; second: number; year: number } };

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const TIME_TAIL = String.raw`(?:(?:\s+|T)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:\s*([AaPp])\.?\s*[Mm]\.?)?)?\s*$`;
const ISO_ZONED = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)\s*(Z|[+-]\d{2}:?\d{2})$/i;
const YEAR_FIRST = new RegExp(String.raw`^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})` + TIME_TAIL);
const NUMERIC = new RegExp(String.raw`^(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})` + TIME_TAIL);
const DAY_MONTH_NAME = new RegExp(String.raw`^(\d{1,2})(?:st|nd|rd|th)?[-\s]([A-Za-z]{3,9})\.?,?[-\s](\d{4}|\d{2})` + TIME_TAIL);
const MONTH_NAME_DAY = new RegExp(String.raw`^([A-Za-z]{3,9})\.?\s(\d{1,2})(?:st|nd|rd|th)?,?\s(\d{4})` + TIME_TAIL);

const year = (text: string) => (text.length === 2 ? 2000 + Number(text) : Number(text));
const monthOf = (name: string) => {
  const i = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return i < 0 || !MONTH_NAMES[i]!.toLowerCase().startsWith(name.toLowerCase()) ? null : i + 1;
};

/** The time part ('17:10', '5:10:00 PM') as 24-hour fields, or null when it is no real time. */
function clock(h?: string, mi?: string, s?: string, ampm?: string): { h: number; mi: number; s: number; hasTime: boolean } | null {
  if (h === undefined) return { h: 0, mi: 0, s: 0, hasTime: false };
  let hour = Number(h);
  if (ampm) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (ampm.toLowerCase() === "p" ? 12 : 0);
  }
  return { h: hour, mi: Number(mi), s: Number(s ?? 0), hasTime: true };
}

function wallClock(y: number, mo: number, d: number, t: ReturnType<typeof clock>): TimeRead {
  if (!t) return { ok: false };
  const iso = nairobiToIso(y, mo, d, t.h, t.mi, t.s);
  return iso ? { ok: true, iso, hasTime: t.hasTime } : { ok: false };
}

/**
 * What a numeric date like `11/5/2026` says about the order of its parts: `day/month` when the
 * first part is over 12, `month/day` when the second is, null when either reading works.
 */
export function numericDateOrder(cell: Cell): { style: DateStyle; order: DayMonthOrder | null } | null {
  if (typeof cell !== "string") return null;
  const m = NUMERIC.exec(cell.trim());
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[3]);
  const style = m[2] as DateStyle;
  if (a > 12 && b >= 1 && b <= 12) return { style, order: "day/month" };
  if (b > 12 && a >= 1 && a <= 12) return { style, order: "month/day" };
  return { style, order: null };
}

/** An Excel day serial (days since 1899-12-30, wall-clock time) as ISO UTC. */
function excelSerial(n: number): TimeRead {
  if (!Number.isFinite(n) || n < 20_000 || n > 80_000) return { ok: false };
  const wall = Math.round((n - 25_569) * 86_400) * 1000;
  return { ok: true, iso: new Date(wall - 3 * 3_600_000).toISOString(), hasTime: n % 1 !== 0 };
}

/**
 * A statement's date and time as ISO UTC. `orders` says how this file orders the parts of a
 * numeric date, per separator style; a date either order could read is `ambiguous` without it.
 */
export function readStatementTime(cell: Cell, orders: DateOrders = {}): TimeRead {
  if (cell instanceof Date) {
    const t = cell.getTime();
    if (Number.isNaN(t)) return { ok: false };
    // read-excel-file gives the cell's wall-clock time in the Date's UTC fields.
    return { ok: true, iso: new Date(Math.round(t / 1000) * 1000 - 3 * 3_600_000).toISOString(), hasTime: true };
  }
  if (typeof cell === "number") return excelSerial(cell);
  if (typeof cell !== "string") return { ok: false };
  const text = cell.trim().replace(/\s+/g, " ");

  let m = ISO_ZONED.exec(text);
  if (m) {
    const zone = m[3]!.toUpperCase() === "Z" ? "Z" : m[3]!.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
    const t = Date.parse(`${m[1]}T${m[2]}${zone}`);
    return Number.isNaN(t) ? { ok: false } : { ok: true, iso: new Date(t).toISOString(), hasTime: true };
  }
  m = YEAR_FIRST.exec(text);
  if (m) return wallClock(Number(m[1]), Number(m[3]), Number(m[4]), clock(m[5], m[6], m[7], m[8]));
  m = NUMERIC.exec(text);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const style = m[2] as DateStyle;
    const y = year(m[4]!);
    const t = clock(m[5], m[6], m[7], m[8]);
    const hint = numericDateOrder(text)!.order;
    const order = hint ?? (a === b ? "day/month" : orders[style]);
    if (!order) return { ok: false, ambiguous: { style, first: a, second: b, year: y } };
    return order === "day/month" ? wallClock(y, b, a, t) : wallClock(y, a, b, t);
  }
  m = DAY_MONTH_NAME.exec(text);
  if (m) {
    const mo = monthOf(m[2]!);
    return mo ? wallClock(year(m[3]!), mo, Number(m[1]), clock(m[4], m[5], m[6], m[7])) : { ok: false };
  }
  m = MONTH_NAME_DAY.exec(text);
  if (m) {
    const mo = monthOf(m[1]!);
    return mo ? wallClock(Number(m[3]), mo, Number(m[2]), clock(m[4], m[5], m[6], m[7])) : { ok: false };
  }
  return { ok: false };
}

/** The two readings of an ambiguous date, in words: '11 May or 5 November 2026'. */
export function twoReadings(a: { first: number; second: number; year: number }): string {
  const month = (n: number) => MONTH_NAMES[n - 1] ?? String(n);
  return `${a.first} ${month(a.second)} or ${a.second} ${month(a.first)} ${a.year}`;
}

/** A statement's date and time as ISO UTC, or null (also when the day and month could be swapped). */
export function statementTime(text: string, orders: DateOrders = {}): string | null {
  const r = readStatementTime(text, orders);
  return r.ok && r.hasTime ? r.iso : null;
}
