/**
 * What M-Pesa's records cover, for the 'no such payment' verdict: the stated periods of the
 * imported statements of the site's numbers. A supporter may have paid any of the site's numbers
 * (a paybill and a till), so a time counts as covered only where a statement of every one of
 * them covers it: a paybill statement says nothing of a till payment. Statements of one number
 * that meet or overlap join up (October's and November's cover both months). No server code.
 */
export type Span = { from: string; to: string };
export type StatementSpan = Span & { shortcode: string };

/** Statements this close apart (one ending 23:59:59, the next starting 00:00:00) join up. */
const JOIN_MS = 60_000;

/** Overlapping or touching spans as one, in time order. */
export function joined(spans: Span[]): Span[] {
  const sorted = spans.map((s) => ({ from: Date.parse(s.from), to: Date.parse(s.to) })).filter((s) => s.to >= s.from).sort((a, b) => a.from - b.from);
  const out: { from: number; to: number }[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && s.from <= last.to + JOIN_MS) last.to = Math.max(last.to, s.to);
    else out.push({ ...s });
  }
  return out.map((s) => ({ from: new Date(s.from).toISOString(), to: new Date(s.to).toISOString() }));
}

/** Where both lists of (joined) spans cover. */
function overlap(a: Span[], b: Span[]): Span[] {
  const out: Span[] = [];
  for (const x of a) {
    for (const y of b) {
      const from = Math.max(Date.parse(x.from), Date.parse(y.from));
      const to = Math.min(Date.parse(x.to), Date.parse(y.to));
      if (from <= to) out.push({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
    }
  }
  return out;
}

/** The times the statements cover for every one of the site's numbers. */
export function coveredForEveryNumber(statements: StatementSpan[], siteNumbers: readonly string[]): Span[] {
  if (siteNumbers.length === 0) return [];
  return siteNumbers
    .map((n) => joined(statements.filter((s) => s.shortcode === n)))
    .reduce((acc, spans) => joined(overlap(acc, spans)));
}
