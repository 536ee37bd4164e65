import { parse } from "csv-parse/sync";
import { DomainError } from "~/lib/domain-error";
import { MPESA_CODE, nairobiToIso, wholeShillings, type ReceivedPayment } from "./payment";

/**
 * The statement the M-PESA business portal exports (CSV): a few title lines (organisation,
 * short code, period), then a header row starting 'Receipt No.', then one row per transaction.
 * Header spellings vary between portal versions, amounts carry thousands separators, and
 * 'Other Party Info' is '2547XXXXXXXX - NAME' (masked in newer exports). Only completed money
 * paid in is a payment; other rows are skipped with the reason. A row that should be a payment
 * but cannot be read makes the whole file refused, naming its line: nothing half-read is kept.
 */
export type StatementSkip = { line: number; code: string; reason: string };
export type ParsedStatement = { rows: number; payments: (ReceivedPayment & { line: number })[]; skipped: StatementSkip[] };

const norm = (s: string) => s.toLowerCase().replace(/[.\s]+/g, " ").replace(/\s*\/\s*/g, "/").trim();

const COLUMNS = {
  receipt: ["receipt no"],
  completed: ["completion time", "completed time", "completion date"],
  initiated: ["initiation time"],
  details: ["details", "description"],
  status: ["transaction status", "status"],
  paidIn: ["paid in", "paid in (ksh)", "credit"],
  withdrawn: ["withdrawn", "withdrawn (ksh)", "debit"],
  otherParty: ["other party info", "other party"],
  account: ["a/c no", "ac no", "account no", "account number"],
} as const;

type Column = keyof typeof COLUMNS;

/** '2025-11-12 19:42:10', '12-11-2025 19:42:10' or '12/11/2025 19:42' (Nairobi time) as ISO UTC. */
export function statementTime(text: string): string | null {
  const t = text.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  if (m) return nairobiToIso(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  m = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  if (m) return nairobiToIso(+m[3]!, +m[2]!, +m[1]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  return null;
}

/** '254712345678 - JANE WANJIKU' -> phone and name; a part that is not a number is the name. */
export function otherParty(text: string): { phone: string; name: string } {
  const t = text.trim();
  const at = t.indexOf(" - ");
  if (at > 0) {
    const head = t.slice(0, at).trim();
    if (/^[\d*•xX]+$/.test(head)) return { phone: head, name: t.slice(at + 3).trim() };
  }
  return /^[\d*•]+$/.test(t) ? { phone: t, name: "" } : { phone: "", name: t };
}

const refuse = (line: number, why: string) => new DomainError("invalid", `Line ${line}: ${why}. Nothing was imported.`);

export function parseStatement(csv: string, shortcode: string): ParsedStatement {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(csv, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true, info: true }) as unknown as typeof records;
  } catch (e) {
    const line = (e as { lines?: number }).lines;
    throw new DomainError("invalid", `${line ? `Line ${line}: ` : ""}the file is not a readable CSV statement. Nothing was imported.`);
  }
  const headerAt = records.findIndex((r) => r.record.some((c) => norm(c) === "receipt no"));
  if (headerAt < 0) {
    throw new DomainError("invalid", "This is not an M-PESA statement: no header row with 'Receipt No.' was found. Nothing was imported.");
  }
  const header = records[headerAt]!.record.map(norm);
  const index = {} as Record<Column, number>;
  for (const [col, names] of Object.entries(COLUMNS) as [Column, readonly string[]][]) {
    index[col] = header.findIndex((h) => names.includes(h));
  }
  for (const required of ["receipt", "completed", "status", "paidIn"] as const) {
    if (index[required] < 0) {
      throw refuse(records[headerAt]!.info.lines, `the header has no '${COLUMNS[required][0]}' column`);
    }
  }
  const out: ParsedStatement = { rows: 0, payments: [], skipped: [] };
  const seen = new Set<string>();
  for (const { record, info } of records.slice(headerAt + 1)) {
    const line = info.lines;
    const cell = (col: Column) => (index[col] >= 0 ? (record[index[col]] ?? "").trim() : "");
    if (record.every((c) => c === "")) continue;
    out.rows++;
    const code = cell("receipt").toUpperCase();
    const status = cell("status").toLowerCase();
    const paidIn = cell("paidIn");
    if (status !== "completed") {
      out.skipped.push({ line, code, reason: `not completed (${cell("status") || "no status"})` });
      continue;
    }
    if (!paidIn || /^0+(\.0+)?$/.test(paidIn.replace(/,/g, ""))) {
      out.skipped.push({ line, code, reason: "money out, not a payment in" });
      continue;
    }
    if (!MPESA_CODE.test(code)) throw refuse(line, `'${code.slice(0, 20)}' is not an M-Pesa receipt number`);
    const amount = wholeShillings(paidIn);
    if (amount === null) throw refuse(line, `'${paidIn.slice(0, 20)}' is not a whole-shilling amount`);
    const paidAt = statementTime(cell("completed"));
    if (!paidAt) throw refuse(line, `'${cell("completed").slice(0, 30)}' is not a date and time the import can read`);
    if (seen.has(code)) {
      out.skipped.push({ line, code, reason: "the same receipt appears earlier in this file" });
      continue;
    }
    seen.add(code);
    const party = otherParty(cell("otherParty"));
    const raw: Record<string, string> = {};
    records[headerAt]!.record.forEach((h, i) => {
      if (h) raw[h] = (record[i] ?? "").slice(0, 200);
    });
    out.payments.push({
      line,
      code,
      amount,
      paidAt,
      payerName: party.name,
      payerPhone: party.phone,
      accountRef: cell("account"),
      shortcode,
      source: "statement",
      raw,
    });
  }
  return out;
}
