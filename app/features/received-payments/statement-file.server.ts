import readXlsxFile from "read-excel-file/node";
import { DomainError } from "~/lib/core/domain-error";
import { csvLines, parseStatementLines, type ParsedStatement, type StatementLine, type StatementSource } from "./statement";

/**
 * A statement file as staff upload it: the portal's CSV (text), or an `.xlsx` (the portal's
 * Excel export, or a CSV Excel re-saved), read with read-excel-file. Excel gives amounts as
 * numbers and times as Dates (or day serials); the statement reader takes each as it comes.
 */
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];
const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/** What an uploaded file is, by its first bytes (a name or a content type can say anything). */
export function statementSource(bytes: Uint8Array): StatementSource {
  if (startsWith(bytes, ZIP)) return { xlsx: bytes };
  if (startsWith(bytes, OLE)) {
    throw new DomainError("invalid", "This is an old Excel .xls file: save it as .xlsx or CSV (or export the statement from the portal again), then import it. Nothing was imported.");
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

/** The first sheet's rows as statement lines (line = the spreadsheet's row number). */
async function xlsxLines(bytes: Uint8Array): Promise<StatementLine[]> {
  let sheets: Awaited<ReturnType<typeof readXlsxFile>>;
  try {
    sheets = await readXlsxFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    throw new DomainError("invalid", "The file is not a readable .xlsx statement. Nothing was imported.");
  }
  // The sheet that holds the table: the portal writes one; a re-saved workbook may hold more.
  const sheet = sheets.find((s) => s.data.some((row) => row.some((c) => typeof c === "string" && /^\s*receipt\s+no\.?\s*$/i.test(c)))) ?? sheets[0];
  return (sheet?.data ?? []).map((cells, i) => ({ line: i + 1, cells: cells as StatementLine["cells"] }));
}

/** Reads a statement, CSV or .xlsx; a malformed one throws, naming its line. */
export async function readStatement(source: StatementSource, siteShortcodes: string | readonly string[]): Promise<ParsedStatement> {
  const lines = typeof source === "string" ? csvLines(source) : await xlsxLines(source.xlsx);
  return parseStatementLines(lines, siteShortcodes);
}
