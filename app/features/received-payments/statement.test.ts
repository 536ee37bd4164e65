import { describe, expect, it } from "vitest";
import { DomainError } from "~/lib/core/domain-error";
import { phoneForStaff, nairobiToIso, wholeShillings } from "./payment";
import { parse } from "csv-parse/sync";
import { csvLines, otherParty, parseStatement, statementTime } from "./statement";

/** A statement as the portal writes it: title lines, then the header, then rows. */
function statement(rows: string[], header = "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.") {
  return ["Street Light Outreach", "Short Code,880100", "Period,01-11-2025 - 30-11-2025", "", header, ...rows].join("\r\n");
}

const paid = (code: string, when: string, amount: string, party = "254712345678 - JANE WANJIKU", status = "Completed") =>
  `${code},${when},${when},Pay Bill from ${party},${status},"${amount}",,"10,000.00",true,Pay Bill Online,${party},,VESPERS`;

describe("reading the business portal's statement", () => {
  it("reads the same lines, numbered from the file's first, as one pass over the whole file would", () => {
    // Title lines of other lengths (one with a quoted line break), the header, rows, a short row, a blank line.
    const csv = ['\ufeffStreet Light Outreach', '"Organisation","Street Light\nOutreach"', "Short Code,880100", "", statement([]).split("\r\n").at(-1)!,
      paid("SKL4Q2ZB7X", "2025-11-12 19:42:10", "1,300.00"), "SKL4Q2ZB7Y,2025-11-12 19:43:10", "", paid("SKL4Q2ZB7Z", "2025-11-12 19:44:10", "300.00")].join("\r\n");
    const whole = (parse(csv, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[])
      .map((r) => ({ line: r.info.lines, cells: r.record }));
    expect(whole.map((l) => l.line)).toEqual([1, 3, 4, 6, 7, 8, 10]);
    expect(csvLines(csv)).toEqual(whole);
    // A header on the first line, and a file with no header at all, read the same way too.
    for (const other of [csv.split("\r\n").slice(4).join("\n"), "a,b\nc"]) {
      expect(csvLines(other)).toEqual(
        (parse(other, { relax_column_count: true, skip_empty_lines: true, trim: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[]).map((r) => ({ line: r.info.lines, cells: r.record })),
      );
    }
  });

  it("finds the header after the title lines, reads thousands separators, Nairobi times and the payer", () => {
    const parsed = parseStatement(statement([paid("SKL4Q2ZB7X", "2025-11-12 19:42:10", "1,300.00")]), "880100");
    expect(parsed.rows).toBe(1);
    expect(parsed.payments).toHaveLength(1);
    expect(parsed.payments[0]).toMatchObject({
      code: "SKL4Q2ZB7X",
      amount: 1300,
      paidAt: "2025-11-12T16:42:10.000Z",
      payerName: "JANE WANJIKU",
      payerPhone: "254712345678",
      accountRef: "VESPERS",
      source: "statement",
      line: 6,
    });
  });

  it("keeps a masked number as given, and reads the header without the dot and other date forms", () => {
    const csv = statement(
      [paid("TAB12CD34E", "12-11-2025 19:42:10", "300.00", "2547******678 - JOHN OTIENO"), paid("TAB12CD34F", "13/11/2025 08:05", "500")],
      "Receipt No,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.",
    );
    const parsed = parseStatement(csv, "880100");
    expect(parsed.payments.map((p) => [p.code, p.payerPhone, p.payerName, p.paidAt])).toEqual([
      ["TAB12CD34E", "2547******678", "JOHN OTIENO", "2025-11-12T16:42:10.000Z"],
      ["TAB12CD34F", "254712345678", "JANE WANJIKU", "2025-11-13T05:05:00.000Z"],
    ]);
  });

  it("counts only completed money paid in; other rows are skipped with the reason", () => {
    const parsed = parseStatement(
      statement([
        paid("SKL4Q2ZB7X", "2025-11-12 19:42:10", "1,300.00", undefined, "Failed"),
        `SKL4Q2ZB7Y,2025-11-12 20:00:00,2025-11-12 20:00:00,Withdrawal,Completed,,"-500.00",,true,Withdrawal,,,`,
        paid("SKL4Q2ZB7Z", "2025-11-12 21:00:00", "700.00"),
        paid("SKL4Q2ZB7Z", "2025-11-12 21:00:00", "700.00"),
      ]),
      "880100",
    );
    expect(parsed.payments.map((p) => p.code)).toEqual(["SKL4Q2ZB7Z"]);
    expect(parsed.skipped.map((s) => [s.line, s.reason])).toEqual([
      [6, "not completed (Failed)"],
      [7, "money out, not a payment in"],
      [9, "the same receipt appears earlier in this file"],
    ]);
  });

  it("refuses a file that is not a statement, or a payment row it cannot read, naming the line", () => {
    const refusal = (csv: string) => {
      try {
        parseStatement(csv, "880100");
      } catch (e) {
        expect(e).toBeInstanceOf(DomainError);
        return (e as Error).message;
      }
      throw new Error("expected a refusal");
    };
    expect(refusal("name,email\nJane,jane@example.org")).toMatch(/no header row with 'Receipt No\.'/);
    expect(refusal(statement([paid("SKL4Q2ZB7X", "yesterday", "100")]))).toBe(
      "Line 6: 'yesterday' is not a date and time the import can read. Nothing was imported.",
    );
    expect(refusal(statement([paid("SKL4Q2ZB7X", "2025-11-12 19:42:10", "12.50")]))).toMatch(/^Line 6: '12\.50' is not a whole-shilling amount/);
    expect(refusal(statement([paid("NOT-A-CODE", "2025-11-12 19:42:10", "100")]))).toMatch(/^Line 6: 'NOT-A-CODE' is not an M-Pesa receipt number/);
    expect(refusal(statement([`"SKL4Q2ZB7X,2025-11-12`]))).toMatch(/not a readable CSV statement/);
  });

  it("reads times, amounts and payers the way the portal writes them", () => {
    expect(statementTime("2025-11-12 00:30:00")).toBe("2025-11-11T21:30:00.000Z");
    expect(statementTime("31-02-2025 10:00:00")).toBeNull();
    expect(nairobiToIso(2025, 2, 29, 10, 0, 0)).toBeNull();
    expect(wholeShillings("1,300.00")).toBe(1300);
    expect(wholeShillings("0")).toBeNull();
    expect(wholeShillings("-5")).toBeNull();
    expect(otherParty("JANE WANJIKU")).toEqual({ phone: "", name: "JANE WANJIKU" });
    // Staff see the number as M-Pesa sent it (they may need to call the payer); a hash shortened.
    expect(phoneForStaff("254712345678")).toBe("254712345678");
    expect(phoneForStaff(" 2547******678 ")).toBe("2547******678");
    expect(phoneForStaff("2f1a7c9e0b5d4c3a2f1a7c9e0b5d4c3a2f1a7c9e0b5d4c3a2f1a7c9e0b5d1d4f")).toBe("2f1a7c…1d4f");
  });
});
