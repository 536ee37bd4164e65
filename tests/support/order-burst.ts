/**
 * The order burst of the multi-process tests: 400 badge orders at once, 360 codes of which 40
 * are sent twice (one of each pair must be refused), request i going to origins[i % n].
 * `onAnswer(n)` is called with the number of answers so far (a test kills a process at 100).
 */
export type BurstAnswer = { code: string; status: number; id: string | undefined; sentTwice: boolean };

export async function orderBurst(origins: string[], prefix: string, onAnswer: (answered: number) => void): Promise<BurstAnswer[]> {
  const codes = Array.from({ length: 360 }, (_, i) => `${prefix}${String(i).padStart(8, "0")}`);
  const sent = [...codes, ...codes.slice(0, 40)];
  let answered = 0;
  return Promise.all(
    sent.map(async (paymentReference, i) => {
      try {
        const res = await fetch(`${origins[i % origins.length]}/api/badge_orders.php`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ tierKey: "t1", name: `Burst Supporter ${i}`, email: `burst-${i}@example.org`, paymentReference }),
          // A connection handed to a process as it died gets no answer: a phone would give up
          // and retry; so does this.
          signal: AbortSignal.timeout(20_000),
        });
        const body = (await res.json().catch(() => ({}))) as { ok?: boolean; id?: string };
        onAnswer(++answered);
        return { code: paymentReference, status: res.status, id: body.ok ? body.id : undefined, sentTwice: i % 360 < 40 };
      } catch {
        return { code: paymentReference, status: 0, id: undefined, sentTwice: i % 360 < 40 };
      }
    }),
  );
}

/** Answers counted by HTTP status (0: no answer). */
export function byStatus(answers: BurstAnswer[]) {
  const statuses: Record<string, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  return statuses;
}

/** Codes sent once and answered 503 'busy, try again': none of them may have been stored. */
export const refusedAsBusy = (answers: BurstAnswer[]) => answers.filter((a) => a.status === 503 && !a.sentTwice).map((a) => a.code);
