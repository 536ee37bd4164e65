import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { BlogReply } from "./blog-reply";

type Props = {
  slug: string;
  pollId: string;
  question: string;
  counts: Record<string, number>;
  /** The options this client has voted for, as the server knows them. */
  mine: string[];
  serverReply?: BlogReply;
};

/**
 * The post's question poll ('What do you think?' Yes / No) with its counts: one answer per
 * visitor, so choosing the other moves the vote. Each option is a form button (intent=vote);
 * with JavaScript the count moves at once and is then replaced by
 * the counts the server answers (or put back, with the server's words, when it refuses).
 */
export function QuestionPoll({ slug, pollId, question, counts: serverCounts, mine: serverMine, serverReply }: Props) {
  const fetcher = useFetcher<BlogReply>();
  const [counts, setCounts] = useState(serverCounts);
  const [mine, setMine] = useState(serverMine);
  const [error, setError] = useState(serverReply?.status === "error" ? serverReply.message : undefined);
  const pending = useRef<{ counts: Record<string, number>; mine: string[] } | null>(null);
  const action = `/blogs/${slug}`;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);

  useEffect(() => {
    if (fetcher.state !== "idle" || !pending.current) return;
    const before = pending.current;
    pending.current = null;
    const reply = fetcher.data;
    if (reply?.status === "success" && reply.result?.options) {
      setCounts(reply.result.options);
      setMine(reply.result.mine ?? []);
      setError(undefined);
    } else {
      setCounts(before.counts);
      setMine(before.mine);
      setError(reply?.message ?? "Your vote could not be saved. Please try again.");
    }
  }, [fetcher.state, fetcher.data]);

  function choose(e: React.FormEvent<HTMLFormElement>, option: string) {
    e.preventDefault();
    if (pending.current || fetcher.state !== "idle") return;
    pending.current = { counts, mine };
    if (!mine.includes(option)) {
      // One answer: the vote moves from the earlier choice to this one.
      const next = { ...counts, [option]: (counts[option] ?? 0) + 1 };
      for (const earlier of mine) if (earlier in next) next[earlier] = Math.max(0, next[earlier]! - 1);
      setCounts(next);
      setMine([option]);
    }
    setError(undefined);
    void fetcher.submit({ intent: "vote", id: pollId, option }, { method: "post", action });
  }

  return (
    <div className="poll" role="group" aria-labelledby="poll-question">
      <h3 id="poll-question">{question}</h3>
      <ul className="poll-options">
        {Object.entries(counts).map(([option, n]) => {
          const share = total > 0 ? Math.round((n / total) * 100) : 0;
          return (
            <li key={option}>
              <form method="post" action={`${action}#engage`} onSubmit={(e) => choose(e, option)}>
                <input type="hidden" name="intent" value="vote" />
                <input type="hidden" name="id" value={pollId} />
                <input type="hidden" name="option" value={option} />
                <button type="submit" className="poll-option" aria-pressed={mine.includes(option)}>
                  <span className="poll-bar" style={{ transform: `scaleX(${share / 100})` }} aria-hidden="true" />
                  <span className="poll-label">{option}</span>
                  <span className="poll-count">
                    {n}
                    <span className="visually-hidden">{n === 1 ? " vote" : " votes"}</span>
                  </span>
                </button>
              </form>
            </li>
          );
        })}
      </ul>
      <p className={error ? "form-status form-status-error" : "form-status"} role="status" aria-live="polite">
        {error}
      </p>
    </div>
  );
}
