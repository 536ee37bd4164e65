/**
 * The rules that tie a receipt to an order besides its typed code, as plain functions: an
 * order reference read out of an account number as people type it, and a code that is
 * probably a typo of the one typed.
 */

/** Look-alikes people mix up when they copy a code from an SMS. */
const LOOK_ALIKE: Record<string, string> = { O: "0", I: "1", S: "5", B: "8", Z: "2" };
/** Order references use 0-9 and letters without I, L, O and U (app/features/orders/order-ids.server.ts). */
const REFERENCE_LOOK_ALIKE: Record<string, string> = { O: "0", I: "1", L: "1", U: "V" };

/** How near the order's time a payment must be to be offered as 'probably this order'. */
export const SUGGESTION_WINDOW_MS = 3 * 86_400_000;

const body = (six: string) => six.replace(/[OILU]/g, (c) => REFERENCE_LOOK_ALIKE[c]!);

/**
 * The order reference an M-Pesa account number (BillRefNumber, the statement's A/C No.) names,
 * or null: any case, with spaces, dots or no dash ('bo 7k2q4m', 'BO7K2Q4M', 'Bo-7k2q4m'),
 * an aggregator's 'STORE#BO-7K2Q4M', or inside a few words ('BO-7K2Q4M Jane').
 */
export function orderReferenceIn(accountRef: string): string | null {
  const text = accountRef.toUpperCase().trim();
  if (!text) return null;
  for (const part of new Set([text.split("#").at(-1)!, text])) {
    const compact = part.replace(/[^A-Z0-9]/g, "");
    const m = /^([BM])[O0]([0-9A-Z]{6})$/.exec(compact);
    if (m) return `${m[1]}O-${body(m[2]!)}`;
  }
  const m = /(?:^|[^A-Z0-9])([BM])[O0][\s._-]*([0-9A-Z]{6})(?![0-9A-Z])/.exec(text);
  return m ? `${m[1]}O-${body(m[2]!)}` : null;
}

/**
 * Whether `received` is probably what was meant by `typed`: the same length, not the same,
 * and the same after reading O as 0, I as 1, S as 5, B as 8 and Z as 2 but for at most one
 * other character.
 */
export function codesLookAlike(typed: string, received: string): boolean {
  if (typed.length !== received.length || typed === received) return false;
  let other = 0;
  for (let i = 0; i < typed.length; i++) {
    const a = typed[i]!;
    const b = received[i]!;
    if (a === b || (LOOK_ALIKE[a] ?? a) === (LOOK_ALIKE[b] ?? b)) continue;
    if (++other > 1) return false;
  }
  return true;
}

/** The code with its look-alike letters read as digits (O as 0, I as 1, S as 5, B as 8, Z as 2). */
export const readLookAlikes = (code: string) => code.replace(/[OISBZ]/g, (c) => LOOK_ALIKE[c]!);

/** The same reading in SQL (SQLite and PostgreSQL alike), for a column holding a code. */
export const LOOK_ALIKE_SQL_PAIRS = Object.entries(LOOK_ALIKE);

/**
 * Keys two look-alike codes share (at least one) and two others never do: the code with its
 * look-alikes read as digits, once with each character left out. Lets a list of orders be
 * matched against thousands of payments without comparing every pair.
 */
export function lookAlikeKeys(code: string): string[] {
  const read = [...readLookAlikes(code)];
  return read.map((_, i) => `${code.length}:${read.slice(0, i).join("")}*${read.slice(i + 1).join("")}`);
}

/** A receipt is offered for an order when its code looks like the typed one, its amount is the order's, and it was paid near the order. */
export function probablyThisOrder(order: { code: string; amount: number; createdAt: string }, receipt: { code: string; amount: number; paidAt: string }): boolean {
  return (
    receipt.amount === order.amount &&
    Math.abs(Date.parse(receipt.paidAt) - Date.parse(order.createdAt)) <= SUGGESTION_WINDOW_MS &&
    codesLookAlike(order.code.toUpperCase(), receipt.code)
  );
}
