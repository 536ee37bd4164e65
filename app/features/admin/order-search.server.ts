import { sql, type RawBuilder, type SqlBool } from "kysely";
import { anyColumnContains } from "~/lib/db/sql.server";
import { isValidPaymentCode, normalisePaymentCode } from "../payment-codes/payment-code";

/**
 * A staff search over orders, as people type it: true where any of `columns` holds the text
 * (ignoring case); or, when the text reads as an M-Pesa code typed with spaces or dashes
 * ('TKD4 BK8D9T', 'tkd4-bk8d9t') or a pasted confirmation SMS, where the code column holds that
 * code, normalised as the order forms store it; or, with the spaces taken out, where the
 * reference or code column holds it ('BO-Q9J 65J', 'TKD4 BK' for part of a code).
 */
export function orderSearch(columns: readonly string[], refs: { code: string; id: string }, text: string): RawBuilder<SqlBool> {
  const typed = text.trim();
  const tests = [anyColumnContains(columns, typed)];
  const code = normalisePaymentCode(typed);
  if (isValidPaymentCode(code) && code !== typed.toUpperCase()) tests.push(anyColumnContains([refs.code], code));
  const compact = typed.replace(/[\s]+/g, "");
  if (compact !== typed && compact.length >= 3) tests.push(anyColumnContains([refs.id, refs.code], compact));
  // An old site's order reference (order_…, mo_…) finds the order it became here.
  if (/^(order|mo|legacy)_[0-9a-z_.]{6,60}$/i.test(typed)) {
    tests.push(sql<SqlBool>`${sql.ref(refs.id)} in (select target from legacy_imports where kind in ('badge_order', 'merch_order') and key = ${typed.toLowerCase()})`);
  }
  return tests.length === 1 ? tests[0]! : sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}
