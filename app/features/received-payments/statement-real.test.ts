import writeExcelFile from "write-excel-file/node";
import { describe, expect, it } from "vitest";
import { DomainError } from "~/lib/core/domain-error";
import { parseStatement, statementTime } from "./statement";
import { readStatementTime } from "./statement-dates";
import { readStatement, statementSource } from "./statement-file.server";

// Statements in the shapes the M-PESA business portal really writes (shared/docs/mpesa.md, 'The
// business portal's statement export' and 'What Safaricom really sends'): title lines naming the
// organisation, the short code and the period, then the 13-column table; amounts with
// thousands separators; masked Other Party Info; reversals as Reason Type 'Reversal' rows with
// the money in Withdrawn and the original receipt in Linked Transaction ID. And what Excel does
// to such a file when someone opens and saves it: US dates, '5:10:00 PM', .xlsx.

const SITE = ["880100", "5123456"];
const HEADER =
  "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.";
const TITLE = [
  "Organisation Name:,STREET LIGHT OUTREACH",
  "Short Code:,880100",
  "Account:,Utility Account",
  "Time Period:,From 01-11-2026 00:00:00 To 30-11-2026 23:59:59",
  "Operator:,JANE ADMIN",
  "",
];
const portal = (rows: string[], title = TITLE) => [...title, HEADER, ...rows].join("\r\n");
/** A Pay Bill row as the portal writes it (line numbers: the first row after TITLE is line 8). */
const payIn = (code: string, when: string, amount: string, party = "2547******678 - JANE WANJIKU", account = "BO-7KQ2MX") =>
  `${code},${when},${when},Pay Bill from ${party} Acc. ${account},Completed,"${amount}",,"54,300.00",true,Pay Bill Online,${party},,${account}`;
const reversal = (code: string, when: string, amount: string, original: string) =>
  `${code},${when},${when},Reversal of ${original},Completed,,"-${amount}","51,800.00",true,Reversal,2547******123 - JOHN OTIENO,${original},`;

function refusal(work: () => unknown): string {
  try {
    work();
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    return (e as Error).message;
  }
  throw new Error("expected a refusal");
}
async function refusalOf(work: () => Promise<unknown>): Promise<string> {
  const e = await work().then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DomainError);
  return (e as Error).message;
}

describe("a portal statement with its title block", () => {
  it("reads the short code and the stated period; thousands separators and masked payers", () => {
    const parsed = parseStatement(portal([payIn("TKQ1A2B3C4", "26-11-2026 17:10:05", "1,300.00"), payIn("TKQ1A2B3C5", "27-11-2026 08:00:00", "12,500.00")]), SITE);
    expect(parsed.shortcode).toBe("880100");
    expect(parsed.period).toEqual({ from: "2026-10-31T21:00:00.000Z", to: "2026-11-30T20:59:59.000Z", source: "time_period", line: 4 });
    expect(parsed.periodNote).toBeNull();
    expect(parsed.payments.map((p) => [p.line, p.code, p.amount, p.paidAt, p.payerPhone, p.payerName, p.accountRef, p.shortcode])).toEqual([
      [8, "TKQ1A2B3C4", 1300, "2026-11-26T14:10:05.000Z", "2547******678", "JANE WANJIKU", "BO-7KQ2MX", "880100"],
      [9, "TKQ1A2B3C5", 12500, "2026-11-27T05:00:00.000Z", "2547******678", "JANE WANJIKU", "BO-7KQ2MX", "880100"],
    ]);
  });

  it("reads From and To lines, and a period written in the portal's other ways", () => {
    const fromTo = ["STREET LIGHT OUTREACH", "Short Code,880100", "From,2026-11-01 00:00:00", "To,2026-11-15 23:59:59", ""];
    expect(parseStatement(portal([], fromTo), SITE).period).toMatchObject({ from: "2026-10-31T21:00:00.000Z", to: "2026-11-15T20:59:59.000Z", source: "from_to" });
    // A period ending on a date alone runs to the end of that day.
    const dates = ["STREET LIGHT OUTREACH", "Short Code: 880100", "Time Period: 01 Nov 2026 - 15 Nov 2026", ""];
    expect(parseStatement(portal([], dates), SITE).period).toMatchObject({ from: "2026-10-31T21:00:00.000Z", to: "2026-11-15T20:59:59.000Z" });
  });

  it("a statement without a stated period covers nothing, however many rows it lists (a filtered one lists few)", () => {
    const filtered = ["STREET LIGHT OUTREACH", "Short Code,880100", ""];
    const parsed = parseStatement(portal([payIn("TKQ1A2B3C4", "01-11-2026 08:00:00", "300.00"), payIn("TKQ1A2B3C5", "30-11-2026 20:00:00", "300.00")], filtered), SITE);
    expect(parsed.payments).toHaveLength(2);
    expect(parsed.period).toBeNull();
    expect(parsed.periodNote).toBe("The statement states no period (no 'Time Period' or From/To line), so it covers no period.");
    // A period line that cannot be read is said so, not guessed.
    const unreadable = parseStatement(portal([], ["Short Code,880100", "Statement period,last month", ""]), SITE);
    expect(unreadable.period).toBeNull();
    expect(unreadable.periodNote).toBe("Line 2: the period 'last month' could not be read, so this statement covers no period.");
  });

  it("a statement that names no short code has its period, but cannot vouch for this site's numbers", () => {
    const parsed = parseStatement(portal([], ["STREET LIGHT OUTREACH", "Time Period,01-11-2026 - 30-11-2026", ""]), SITE);
    expect(parsed.shortcode).toBeNull();
    expect(parsed.periodNote).toBe("The statement names no short code, so it cannot show that a payment to this site is missing.");
  });
});

describe("reversals", () => {
  it("a Reversal row with money in Withdrawn takes back the payment in Linked Transaction ID; it is no payment in", () => {
    const parsed = parseStatement(
      portal([payIn("TKQ1A2B3C5", "26-11-2026 17:10:05", "2,500.00"), reversal("TKR9X0AB12", "27-11-2026 09:30:00", "2,500.00", "TKQ1A2B3C5")]),
      SITE,
    );
    expect(parsed.payments.map((p) => p.code)).toEqual(["TKQ1A2B3C5"]);
    expect(parsed.reversals).toEqual([{ line: 9, code: "TKR9X0AB12", original: "TKQ1A2B3C5", amount: 2500, at: "2026-11-27T06:30:00.000Z" }]);
    expect(parsed.skipped).toEqual([]);
  });

  it("a reversal of money paid out (back in Paid In) is skipped with the reason; an unreadable original refuses the file", () => {
    const back = `TKR9X0AB13,27-11-2026 09:30:00,27-11-2026 09:30:00,Reversal of B2C,Completed,"500.00",,"52,300.00",true,Reversal,2547******123 - JOHN OTIENO,TKB2C00001,`;
    expect(parseStatement(portal([back]), SITE)).toMatchObject({ payments: [], reversals: [], skipped: [{ line: 8, reason: "a reversal of money paid out (back into the account), not a payment in" }] });
    expect(refusal(() => parseStatement(portal([reversal("TKR9X0AB12", "27-11-2026 09:30:00", "2,500.00", "")]), SITE))).toBe(
      "Line 8: this reversal's Linked Transaction ID ('') is not an M-Pesa receipt number, so the payment it takes back is unknown. Nothing was imported.",
    );
  });
});

describe("statements for someone else are refused", () => {
  it("another short code, with the number it is for", () => {
    const other = ["KIOSK LTD", "Short Code:,123456", "Time Period:,From 01-11-2026 00:00:00 To 30-11-2026 23:59:59", ""];
    expect(refusal(() => parseStatement(portal([payIn("TKQ1A2B3C4", "26-11-2026 17:10:05", "1,300.00")], other), SITE))).toBe(
      "This statement is for short code 123456, not this site's 880100 or 5123456. Nothing was imported.",
    );
    expect(refusal(() => parseStatement(portal([], other), ["880100"]))).toBe("This statement is for short code 123456, not this site's 880100. Nothing was imported.");
  });

  it("a personal M-PESA statement (its customer header block, or its seven columns alone)", () => {
    const personal = [
      "MPESA FULL STATEMENT",
      "Customer Name:,JOHN DOE",
      "Mobile Number:,0722 *** 678",
      "Email Address:,",
      "Date of Statement:,26 Nov 2026",
      "Statement Period:,01 Nov 2026 - 26 Nov 2026",
      "",
      "Receipt No.,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance",
      `TKQ1A2B3C4,2026-11-26 17:10:05,Funds received from - 0711***222 MARY,Completed,"1,300.00",,"5,300.00"`,
    ].join("\n");
    expect(refusal(() => parseStatement(personal, SITE))).toBe(
      "This is a personal M-PESA statement (for 0722 *** 678), not the organisation's paybill statement: download the statement from the M-PESA business portal. Nothing was imported.",
    );
    const full = personal.replace("0722 *** 678", "254722000678");
    expect(refusal(() => parseStatement(full, SITE))).toContain("(for 0722 *** 678)");
    // An organisation's statement headed 'M-PESA Statement' is not a personal one.
    expect(parseStatement(portal([], ["M-PESA Statement", ...TITLE]), SITE).shortcode).toBe("880100");
    const tableOnly = personal.split("\n").slice(7).join("\n");
    expect(refusal(() => parseStatement(tableOnly, SITE))).toBe(
      "This is a personal M-PESA statement, not the organisation's paybill statement: download the statement from the M-PESA business portal. Nothing was imported.",
    );
  });
});

describe("dates as Excel leaves them", () => {
  it("US dates: ambiguous rows are read by an unambiguous one; the title keeps the portal's own order", () => {
    const parsed = parseStatement(
      portal([
        payIn("TKQ1A2B3C4", "11/5/2026 17:10", "1,300.00"),
        payIn("TKQ1A2B3C5", "11/26/2026 5:10:00 PM", "300.00"),
        payIn("TKQ1A2B3C6", "11/6/2026 9:05", "500.00"),
      ]),
      SITE,
    );
    expect(parsed.payments.map((p) => p.paidAt)).toEqual(["2026-11-05T14:10:00.000Z", "2026-11-26T14:10:00.000Z", "2026-11-06T06:05:00.000Z"]);
    expect(parsed.dateOrders).toEqual(
      expect.arrayContaining([
        { style: "/", order: "month/day", line: 9, text: "11/26/2026 5:10:00 PM" },
        { style: "-", order: "day/month", line: 4, text: "30-11-2026 23:59:59" },
      ]),
    );
    expect(parsed.period).toMatchObject({ from: "2026-10-31T21:00:00.000Z", to: "2026-11-30T20:59:59.000Z" });
  });

  it("a file whose dates could all be either way is refused at the first such line, never guessed", () => {
    const rows = [payIn("TKQ1A2B3C4", "11/5/2026 17:10", "1,300.00"), payIn("TKQ1A2B3C5", "11/6/2026 17:10", "300.00")];
    expect(refusal(() => parseStatement(portal(rows), SITE))).toBe(
      "Line 8: '11/5/2026 17:10' could be 11 May or 5 November 2026, and no other date in the file shows whether the day or the month comes first. " +
        "Export the statement from the portal again and import it without opening it in Excel. Nothing was imported.",
    );
  });

  it("dates of one style that disagree refuse the file", () => {
    const rows = [payIn("TKQ1A2B3C4", "11/26/2026 17:10", "1,300.00"), payIn("TKQ1A2B3C5", "26/11/2026 17:10", "300.00")];
    expect(refusal(() => parseStatement(portal(rows), SITE))).toBe(
      "Line 9: '26/11/2026 17:10' is written day/month but line 8 ('11/26/2026 17:10') is written month/day, so the dates in this file cannot be read safely. Nothing was imported.",
    );
  });

  it("reads '5:10:00 PM', '2026/11/26', '26-Nov-2026' and ISO times", () => {
    expect(statementTime("2026-11-26 5:10:00 PM")).toBe("2026-11-26T14:10:00.000Z");
    expect(statementTime("2026/11/26 17:10:00")).toBe("2026-11-26T14:10:00.000Z");
    expect(statementTime("26-Nov-2026 17:10")).toBe("2026-11-26T14:10:00.000Z");
    expect(statementTime("26 November 2026 12:05 AM")).toBe("2026-11-25T21:05:00.000Z");
    expect(statementTime("2026-11-26T14:10:00Z")).toBe("2026-11-26T14:10:00.000Z");
    expect(statementTime("2026-11-26T17:10:00+03:00")).toBe("2026-11-26T14:10:00.000Z");
    expect(statementTime("2026-11-26T17:10:00")).toBe("2026-11-26T14:10:00.000Z");
    expect(statementTime("11/5/2026 17:10")).toBeNull();
    expect(statementTime("11/5/2026 17:10", { "/": "month/day" })).toBe("2026-11-05T14:10:00.000Z");
    expect(statementTime("13:10:00 PM 2026")).toBeNull();
    expect(readStatementTime("11/5/2026 17:10")).toEqual({ ok: false, ambiguous: { style: "/", first: 11, second: 5, year: 2026 } });
    // What an .xlsx cell holds: a Date carrying the wall clock, or a day serial.
    expect(readStatementTime(new Date(Date.UTC(2026, 10, 26, 17, 10, 0)))).toEqual({ ok: true, iso: "2026-11-26T14:10:00.000Z", hasTime: true });
    expect(readStatementTime(46352 + 17 / 24 + 10 / 1440)).toEqual({ ok: true, iso: "2026-11-26T14:10:00.000Z", hasTime: true });
  });
});

describe("an .xlsx export", () => {
  it("is read with its Dates, numbers and title block, as the spreadsheet's row numbers", async () => {
    const when = (d: number, h: number, mi: number) => ({ value: new Date(Date.UTC(2026, 10, d, h, mi)), format: "dd-mm-yyyy hh:mm:ss" });
    const headerCells = HEADER.split(",");
    const xlsx = await writeExcelFile([
      ["Organisation Name:", "STREET LIGHT OUTREACH"],
      ["Short Code:", 880100],
      ["Time Period:", "From 01-11-2026 00:00:00 To 30-11-2026 23:59:59"],
      [null, null],
      headerCells,
      ["TKQ1A2B3C4", when(26, 17, 10), when(26, 17, 10), "Pay Bill from 2547******678 - JANE WANJIKU", "Completed", 1300, null, 54300, "true", "Pay Bill Online", "2547******678 - JANE WANJIKU", null, "BO-7KQ2MX"],
      ["TKQ1A2B3C5", 46352.75, 46352.75, "Pay Bill", "Completed", { value: 2500, format: "#,##0.00" }, null, 56800, "true", "Pay Bill Online", "2547******123 - JOHN OTIENO", null, "MO-4TR8ZD"],
      ["TKR9X0AB12", when(27, 9, 30), when(27, 9, 30), "Reversal", "Completed", null, -2500, 54300, "true", "Reversal", "2547******123 - JOHN OTIENO", "TKQ1A2B3C5", null],
    ]).toBuffer();
    const source = statementSource(new Uint8Array(xlsx));
    expect(typeof source).not.toBe("string");
    const parsed = await readStatement(source, SITE);
    expect(parsed.shortcode).toBe("880100");
    expect(parsed.period).toMatchObject({ from: "2026-10-31T21:00:00.000Z", to: "2026-11-30T20:59:59.000Z", line: 3 });
    expect(parsed.payments.map((p) => [p.line, p.code, p.amount, p.paidAt, p.accountRef])).toEqual([
      [6, "TKQ1A2B3C4", 1300, "2026-11-26T14:10:00.000Z", "BO-7KQ2MX"],
      [7, "TKQ1A2B3C5", 2500, "2026-11-26T15:00:00.000Z", "MO-4TR8ZD"],
    ]);
    expect(parsed.reversals).toEqual([{ line: 8, code: "TKR9X0AB12", original: "TKQ1A2B3C5", amount: 2500, at: "2026-11-27T06:30:00.000Z" }]);
  });

  it("an .xlsx that is not a statement, or broken, is refused with a sentence", async () => {
    const xlsx = await writeExcelFile([["name", "email"], ["Jane", "jane@example.org"]]).toBuffer();
    expect(await refusalOf(() => readStatement(statementSource(new Uint8Array(xlsx)), SITE))).toMatch(/no header row with 'Receipt No\.'/);
    const broken = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
    expect(await refusalOf(() => readStatement(statementSource(broken), SITE))).toBe("The file is not a readable .xlsx statement. Nothing was imported.");
    expect(refusal(() => statementSource(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0, 0])))).toMatch(/^This is an old Excel \.xls file/);
  });
});
