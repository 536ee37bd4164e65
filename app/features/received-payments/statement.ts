import { parse } from "csv-parse/sync";
import { DomainError } from "~/lib/core/domain-error";
import { MPESA_CODE, wholeShillings, type ReceivedPayment } from "./payment";
import { numericDateOrder, readStatementTime, twoReadings, type Cell, type DateOrders, type DateStyle, type DayMonthOrder } from "./statement-dates";

export { statementTime } from "./statement-dates";

/**
 * The statement the M-PESA business portal exports (CSV, or `.xlsx`): title lines (organisation,
 * `Short Code`, `Time Period` or From/To), then a header row starting 'Receipt No.', then one
 * row per transaction. Header spellings vary between portal versions, amounts carry thousands
 * separators, and 'Other Party Info' is '2547XXXXXXXX - NAME' (masked in newer exports). Only
 * completed money paid in is a payment; a completed row with Reason Type 'Reversal' and money
 * in 'Withdrawn' takes back the payment named in 'Linked Transaction ID'; other rows are
 * skipped with the reason. A row that should count but cannot be read makes the whole file
 * refused, naming its line: nothing half-read is kept. So is a statement for another number,
 * a personal statement, and a date whose day and month the file itself cannot tell apart.
 */
export type StatementSkip = { line: number; code: string; reason: string };
/** A reversal row: `code` (its own receipt) took back the payment `original`. */
export type StatementReversal = { line: number; code: string; original: string; amount: number; at: string };
/** Where a statement's period came from: its 'Time Period' title line, or 'From' and 'To' lines. */
export type PeriodSource = "time_period" | "from_to";
export type StatementPeriod = { from: string; to: string; source: PeriodSource; line: number };
export type ParsedStatement = {
  rows: number;
  payments: (ReceivedPayment & { line: number })[];
  skipped: StatementSkip[];
  reversals: StatementReversal[];
  /** The number the title's 'Short Code' line names (one of the site's), or null when it names none. */
  shortcode: string | null;
  /** The period the title says the statement covers, or null when it states none that can be read. */
  period: StatementPeriod | null;
  /** Why the statement cannot show that a payment is missing (no period, no short code), or null. */
  periodNote: string | null;
  /** How dates like 11/5/2026 were read, and the line that showed it. */
  dateOrders: { style: DateStyle; order: DayMonthOrder; line: number; text: string }[];
};

/** A statement file: CSV text, or the bytes of an .xlsx. */
export type StatementSource = string | { xlsx: Uint8Array };

/** One line of the file: its cells as read (text from a CSV; text, numbers and Dates from an .xlsx) and its line number. */
export type StatementLine = { line: number; cells: Cell[] };

const norm = (s: string) => s.toLowerCase().replace(/[.\s]+/g, " ").replace(/\s*\/\s*/g, "/").trim();
const text = (c: Cell): string => (c === null || c === undefined ? "" : c instanceof Date ? c.toISOString() : String(c).trim());

const COLUMNS = {
  receipt: ["receipt no"],
  completed: ["completion time", "completed time", "completion date"],
  initiated: ["initiation time"],
  details: ["details", "description"],
  status: ["transaction status", "status"],
  paidIn: ["paid in", "paid in (ksh)", "credit"],
  withdrawn: ["withdrawn", "withdrawn (ksh)", "debit"],
  reasonType: ["reason type", "reason"],
  otherParty: ["other party info", "other party"],
  linked: ["linked transaction id", "linked transaction", "linked receipt no"],
  account: ["a/c no", "ac no", "account no", "account number"],
} as const;

type Column = keyof typeof COLUMNS;

/** Columns only the organisation (business portal) statement has; a personal statement has none of them. */
const ORG_ONLY = ["initiation time", "other party info", "other party", "reason type", "linked transaction id", "a/c no", "balance confirmed"];

const SHORTCODE_KEYS = ["short code", "shortcode", "business short code", "organisation short code", "organization short code", "paybill", "paybill number", "till number"];
const PERIOD_KEYS = ["time period", "period", "statement period", "period covered", "date range"];
const FROM_KEYS = ["from", "start", "start date", "start time", "from date", "period from"];
const TO_KEYS = ["to", "end", "end date", "end time", "to date", "period to"];

/** '254712345678 - JANE WANJIKU' -> phone and name; a part that is not a number is the name. */
export function otherParty(value: string): { phone: string; name: string } {
  const t = value.trim();
  const at = t.indexOf(" - ");
  if (at > 0) {
    const head = t.slice(0, at).trim();
    if (/^[\d*•xX]+$/.test(head)) return { phone: head, name: t.slice(at + 3).trim() };
  }
  return /^[\d*•]+$/.test(t) ? { phone: t, name: "" } : { phone: "", name: t };
}

const refuse = (line: number, why: string) => new DomainError("invalid", `Line ${line}: ${why}. Nothing was imported.`);

type CsvRecord = { record: string[]; info: { lines: number } };

function csvRecords(csv: string, lines: { from_line?: number; to_line?: number }): CsvRecord[] {
  try {
    return parse(csv, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true, info: true, ...lines }) as unknown as CsvRecord[];
  } catch (e) {
    const line = (e as { lines?: number }).lines;
    throw new DomainError("invalid", `${line ? `Line ${line}: ` : ""}the file is not a readable CSV statement. Nothing was imported.`);
  }
}

/** The header is looked for in this many first lines (the portal writes a few title lines). */
const TITLE_LINES = 50;

/**
 * The lines of a CSV statement (a BOM, quoted fields and ragged rows allowed).
 *
 * csv-parse builds an error (a stack and a deep copy of its options) for every record whose
 * length differs from the first record's, even when told to allow it. Read in one go, a
 * statement's one-cell title line made each of 20,000 payment rows such a record (a fifth of the
 * import's time). So the header is found in the first lines, and the rows are read from it on:
 * their length is then the header's. Line numbers count from the file's first line either way.
 */
export function csvLines(csv: string): StatementLine[] {
  const head = csvRecords(csv, { to_line: TITLE_LINES });
  const header = head.find((r) => r.record.some((c) => norm(c) === "receipt no"));
  const records =
    header && header.info.lines > 1
      ? [...head.filter((r) => r.info.lines < header.info.lines), ...csvRecords(csv, { from_line: header.info.lines })]
      : csvRecords(csv, {});
  return records.map((r) => ({ line: r.info.lines, cells: r.record }));
}

/** 'A, B or C': the site's numbers in a sentence. */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/** A personal statement's number as the refusal shows it: '0722 *** 678' (a masked one as given). */
function shownMobile(value: string): string {
  const t = value.replace(/\s+/g, " ").trim();
  if (/[*xX•]/.test(t)) return t;
  const d = t.replace(/\D/g, "");
  if (d.length === 12 && d.startsWith("254")) return `0${d.slice(3, 6)} *** ${d.slice(-3)}`;
  if (d.length >= 9) return `${d.slice(0, 4)} *** ${d.slice(-3)}`;
  return t;
}

type TitleEntry = { line: number; key: string; values: Cell[]; all: string };

/** A title line as a key ('short code', 'time period', …) and its values; key '' for plain text. */
function titleEntry(l: StatementLine): TitleEntry | null {
  const cells = l.cells.filter((c) => text(c) !== "");
  if (cells.length === 0) return null;
  const all = cells.map(text).join(" ");
  const [first, ...rest] = cells;
  if (typeof first === "string") {
    const m = /^([A-Za-z][A-Za-z .\/&()'-]{0,40}?)\s*:\s*(.*)$/s.exec(first.trim());
    if (m) return { line: l.line, key: norm(m[1]!), values: m[2] ? [m[2], ...rest] : rest, all };
    if (rest.length > 0 && /^[A-Za-z][A-Za-z .\/&()'-]{0,40}$/.test(first.trim())) return { line: l.line, key: norm(first), values: rest, all };
  }
  return { line: l.line, key: "", values: cells, all };
}

/** A period written in one place ('01-11-2026 - 30-11-2026', 'From … To …', or two cells) as its two ends. */
function splitRange(values: Cell[]): [Cell, Cell] | null {
  const dated = values.filter((v) => v instanceof Date || typeof v === "number");
  if (dated.length === 2 && values.length <= 4) return [dated[0]!, dated[1]!];
  const at = values.findIndex((v) => typeof v === "string" && /^(to|-|–|—|until)$/i.test(v.trim()));
  if (at > 0 && at < values.length - 1) {
    const side = (cells: Cell[]) => (cells.length === 1 ? cells[0]! : cells.map(text).join(" "));
    return [side(values.slice(0, at).filter((v) => !/^from$/i.test(text(v)))), side(values.slice(at + 1))];
  }
  const joined = values.map(text).join(" ").replace(/^from\s+/i, "").trim();
  const parts = joined.split(/\s+(?:to|until|-|–|—)\s+/i);
  return parts.length === 2 ? [parts[0]!, parts[1]!] : null;
}

type Title = {
  shortcode: { value: string; line: number } | null;
  period: { from: Cell; to: Cell; source: PeriodSource; line: number } | null;
  periodText: { line: number; text: string } | null;
  personal: { mobile: string; name: string } | null;
};

function readTitle(lines: StatementLine[]): Title {
  const out: Title = { shortcode: null, period: null, periodText: null, personal: null };
  let from: { cell: Cell; line: number } | null = null;
  let to: Cell | null = null;
  for (const l of lines) {
    const e = titleEntry(l);
    if (!e) continue;
    // The heading of a personal statement (the one a customer gets from the app or *334#).
    if (/\bm-?pesa\s+full\s+statement\b/i.test(e.all)) out.personal ??= { mobile: "", name: "" };
    if (e.key === "customer name" || e.key === "mobile number") {
      out.personal ??= { mobile: "", name: "" };
      if (e.key === "mobile number") out.personal.mobile = text(e.values[0]);
      else out.personal.name = text(e.values[0]);
    } else if (SHORTCODE_KEYS.includes(e.key)) {
      const code = /\b(\d{5,7})\b/.exec(e.values.map(text).join(" "));
      if (code && !out.shortcode) out.shortcode = { value: code[1]!, line: e.line };
    } else if (PERIOD_KEYS.includes(e.key) && !out.period) {
      out.periodText = { line: e.line, text: e.values.map(text).join(" ") };
      const ends = splitRange(e.values);
      if (ends) out.period = { from: ends[0], to: ends[1], source: "time_period", line: e.line };
    } else if (FROM_KEYS.includes(e.key)) {
      const ends = splitRange(e.values);
      if (ends) {
        out.period ??= { from: ends[0], to: ends[1], source: "from_to", line: e.line };
      } else if (e.values.length > 0) from = { cell: e.values.length === 1 ? e.values[0]! : e.values.map(text).join(" "), line: e.line };
      out.periodText ??= { line: e.line, text: e.values.map(text).join(" ") };
    } else if (TO_KEYS.includes(e.key) && e.values.length > 0) {
      to = e.values.length === 1 ? e.values[0]! : e.values.map(text).join(" ");
    } else if (e.key === "" && /^from\s/i.test(e.all) && /\sto\s/i.test(e.all)) {
      const ends = splitRange([e.all]);
      if (ends) out.period ??= { from: ends[0], to: ends[1], source: "from_to", line: e.line };
    }
  }
  if (!out.period && from && to !== null) out.period = { from: from.cell, to, source: "from_to", line: from.line };
  return out;
}

/**
 * The order of day and month for each separator style, from the file's own unambiguous dates;
 * dates of one style that disagree refuse the file.
 */
function dateOrdersOf(cells: { cell: Cell; line: number }[]): { orders: DateOrders; evidence: ParsedStatement["dateOrders"] } {
  const first = new Map<DateStyle, { order: DayMonthOrder; line: number; text: string }>();
  for (const { cell, line } of cells) {
    const hint = numericDateOrder(cell);
    if (!hint?.order) continue;
    const seen = first.get(hint.style);
    if (!seen) first.set(hint.style, { order: hint.order, line, text: String(cell).trim() });
    else if (seen.order !== hint.order) {
      throw refuse(
        line,
        `'${String(cell).trim().slice(0, 30)}' is written ${hint.order} but line ${seen.line} ('${seen.text.slice(0, 30)}') is written ${seen.order}, so the dates in this file cannot be read safely`,
      );
    }
  }
  const orders: DateOrders = {};
  const evidence: ParsedStatement["dateOrders"] = [];
  for (const [style, e] of first) {
    orders[style] = e.order;
    evidence.push({ style, ...e });
  }
  return { orders, evidence };
}

/**
 * Reads a statement's lines. `siteShortcodes` are the site's numbers (the first is the one
 * payments of a statement that names no number are recorded for). Throws a DomainError naming
 * the line for anything that must not be imported.
 */
export function parseStatementLines(lines: StatementLine[], siteShortcodes: string | readonly string[]): ParsedStatement {
  const site = typeof siteShortcodes === "string" ? [siteShortcodes] : [...siteShortcodes];
  const headerAt = lines.findIndex((l) => l.cells.some((c) => typeof c === "string" && norm(c) === "receipt no"));
  if (headerAt < 0) {
    throw new DomainError("invalid", "This is not an M-PESA statement: no header row with 'Receipt No.' was found. Nothing was imported.");
  }
  const headerCells = lines[headerAt]!.cells.map(text);
  const header = headerCells.map(norm);
  const headerLine = lines[headerAt]!.line;
  const title = readTitle(lines.slice(0, headerAt));

  const personalShape = ["details", "balance", "withdrawn"].every((h) => header.includes(h)) && !header.some((h) => ORG_ONLY.includes(h));
  if (title.personal || personalShape) {
    const who = title.personal?.mobile ? shownMobile(title.personal.mobile) : (title.personal?.name ?? "");
    throw new DomainError(
      "invalid",
      `This is a personal M-PESA statement${who ? ` (for ${who})` : ""}, not the organisation's paybill statement: download the statement from the M-PESA business portal. Nothing was imported.`,
    );
  }
  if (title.shortcode && !site.includes(title.shortcode.value)) {
    throw new DomainError("invalid", `This statement is for short code ${title.shortcode.value}, not this site's ${orList(site)}. Nothing was imported.`);
  }

  const index = {} as Record<Column, number>;
  for (const [col, names] of Object.entries(COLUMNS) as [Column, readonly string[]][]) {
    index[col] = header.findIndex((h) => names.includes(h));
  }
  for (const required of ["receipt", "completed", "status", "paidIn"] as const) {
    if (index[required] < 0) throw refuse(headerLine, `the header has no '${COLUMNS[required][0]}' column`);
  }
  const rows = lines.slice(headerAt + 1).filter((l) => l.cells.some((c) => text(c) !== ""));
  const at = (l: StatementLine, col: Column): Cell => (index[col] >= 0 ? l.cells[index[col]] : null);
  const cell = (l: StatementLine, col: Column) => text(at(l, col));

  const { orders, evidence } = dateOrdersOf([
    ...(title.period ? [title.period.from, title.period.to].map((c) => ({ cell: c, line: title.period!.line })) : []),
    ...rows.flatMap((l) => [
      { cell: at(l, "completed"), line: l.line },
      { cell: at(l, "initiated"), line: l.line },
    ]),
  ]);
  /** A row's completion time; a date the file cannot tell the order of refuses the file. */
  const timeOf = (l: StatementLine): string => {
    const value = at(l, "completed");
    const r = readStatementTime(value, orders);
    if (r.ok && r.hasTime) return r.iso;
    const shown = text(value).slice(0, 30);
    if (!r.ok && r.ambiguous) {
      throw refuse(
        l.line,
        `'${shown}' could be ${twoReadings(r.ambiguous)}, and no other date in the file shows whether the day or the month comes first. Export the statement from the portal again and import it without opening it in Excel`,
      );
    }
    throw refuse(l.line, `'${shown}' is not a date and time the import can read`);
  };

  const out: ParsedStatement = {
    rows: 0,
    payments: [],
    skipped: [],
    reversals: [],
    shortcode: title.shortcode?.value ?? null,
    period: null,
    periodNote: null,
    dateOrders: evidence,
  };
  const seen = new Set<string>();
  const seenReversals = new Set<string>();
  for (const l of rows) {
    const line = l.line;
    out.rows++;
    const code = cell(l, "receipt").toUpperCase();
    const status = cell(l, "status").toLowerCase();
    const paidIn = cell(l, "paidIn").replace(/^\((.*)\)$/, "$1");
    const paidInZero = !paidIn || /^-?0+(\.0+)?$/.test(paidIn.replace(/,/g, ""));
    if (status !== "completed") {
      out.skipped.push({ line, code, reason: `not completed (${cell(l, "status") || "no status"})` });
      continue;
    }
    const reversal = /revers/i.test(cell(l, "reasonType")) || (index.reasonType < 0 && /^reversal\b/i.test(cell(l, "details")));
    if (reversal) {
      const withdrawn = cell(l, "withdrawn").replace(/^\((.*)\)$/, "$1").replace(/^-\s*/, "");
      if (!withdrawn || /^0+(\.0+)?$/.test(withdrawn.replace(/,/g, ""))) {
        out.skipped.push({ line, code, reason: "a reversal of money paid out (back into the account), not a payment in" });
        continue;
      }
      const original = cell(l, "linked").toUpperCase();
      if (!MPESA_CODE.test(code)) throw refuse(line, `'${code.slice(0, 20)}' is not an M-Pesa receipt number`);
      if (!MPESA_CODE.test(original)) {
        throw refuse(line, `this reversal's Linked Transaction ID ('${original.slice(0, 20)}') is not an M-Pesa receipt number, so the payment it takes back is unknown`);
      }
      const amount = wholeShillings(withdrawn);
      if (amount === null) throw refuse(line, `'${withdrawn.slice(0, 20)}' is not a whole-shilling amount`);
      const reversedAt = timeOf(l);
      if (seenReversals.has(code)) {
        out.skipped.push({ line, code, reason: "the same receipt appears earlier in this file" });
        continue;
      }
      seenReversals.add(code);
      out.reversals.push({ line, code, original, amount, at: reversedAt });
      continue;
    }
    if (paidInZero) {
      out.skipped.push({ line, code, reason: "money out, not a payment in" });
      continue;
    }
    if (!MPESA_CODE.test(code)) throw refuse(line, `'${code.slice(0, 20)}' is not an M-Pesa receipt number`);
    const amount = wholeShillings(paidIn);
    if (amount === null) throw refuse(line, `'${paidIn.slice(0, 20)}' is not a whole-shilling amount`);
    const paidAt = timeOf(l);
    if (seen.has(code)) {
      out.skipped.push({ line, code, reason: "the same receipt appears earlier in this file" });
      continue;
    }
    seen.add(code);
    const party = otherParty(cell(l, "otherParty"));
    const raw: Record<string, string> = {};
    headerCells.forEach((h, i) => {
      if (h) raw[h] = text(l.cells[i]).slice(0, 200);
    });
    out.payments.push({
      line,
      code,
      amount,
      paidAt,
      payerName: party.name,
      payerPhone: party.phone,
      accountRef: cell(l, "account"),
      shortcode: out.shortcode ?? site[0] ?? "",
      source: "statement",
      raw,
    });
  }

  // The period is the title's word, never the first and last rows': a statement filtered to one
  // account lists a few rows of a long period, and must not vouch for payments it never listed.
  if (title.period) {
    const from = readStatementTime(title.period.from, orders);
    const to = readStatementTime(title.period.to, orders);
    const shown = title.periodText?.text.slice(0, 60) ?? "";
    if (!from.ok || !to.ok) {
      const ambiguous = (!from.ok && from.ambiguous) || (!to.ok && to.ambiguous);
      out.periodNote = ambiguous
        ? `Line ${title.period.line}: the period '${shown}' could be read with the day and month either way, so this statement covers no period.`
        : `Line ${title.period.line}: the period '${shown}' could not be read, so this statement covers no period.`;
    } else {
      // A period ending on a date with no time runs to the end of that day.
      const end = to.hasTime ? to.iso : new Date(Date.parse(to.iso) + 86_400_000 - 1000).toISOString();
      if (Date.parse(end) < Date.parse(from.iso)) out.periodNote = `Line ${title.period.line}: the period '${shown}' ends before it starts, so this statement covers no period.`;
      else out.period = { from: from.iso, to: end, source: title.period.source, line: title.period.line };
    }
  } else {
    out.periodNote = title.periodText
      ? `Line ${title.periodText.line}: the period '${title.periodText.text.slice(0, 60)}' could not be read, so this statement covers no period.`
      : "The statement states no period (no 'Time Period' or From/To line), so it covers no period.";
  }
  if (out.period && !out.shortcode) {
    out.periodNote = "The statement names no short code, so it cannot show that a payment to this site is missing.";
  }
  return out;
}

/** Reads a CSV statement. */
export function parseStatement(csv: string, siteShortcodes: string | readonly string[]): ParsedStatement {
  return parseStatementLines(csvLines(csv), siteShortcodes);
}
