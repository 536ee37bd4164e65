import type { ReactNode } from "react";

export type PayRow = { term: string; value: ReactNode; kind?: "code" | "amount" };

/**
 * Step 1 of every order form: what to send by M-Pesa, as a short list a supporter can copy
 * from (paybill, account, amount), then the same in one sentence.
 */
export function PaySteps({ rows, className, children }: { rows: PayRow[]; className: string; children: ReactNode }) {
  return (
    <section className={className} aria-labelledby="pay-title">
      <h3 id="pay-title">1. Pay by M-Pesa</h3>
      <dl>
        {rows.map((r) => (
          <div key={r.term}>
            <dt>{r.term}</dt>
            <dd className={r.kind ? `pay-${r.kind}` : undefined}>{r.value}</dd>
          </div>
        ))}
      </dl>
      <p className="small">{children}</p>
    </section>
  );
}
