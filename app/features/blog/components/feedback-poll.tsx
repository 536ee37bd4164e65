import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { FEEDBACK_OPTIONS, RATING_STEPS } from "../blog";
import { readLocal, writeLocal, type BlogReply } from "./blog-reply";

export const RATING_SAVED = "Thanks, your rating is saved.";
type Ratings = Record<string, number>;

/** Ratings are 1 to 5; anything else read back is clamped to 0 (not rated) to 5. */
const clamp = (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? Math.min(5, Math.max(0, Math.round(n))) : 0);

/** "Inspired me:4" -> { "Inspired me": 4 }, for this client's votes. */
export function ratingsFrom(votes: string[]): Ratings {
  const out: Ratings = {};
  for (const v of votes) {
    const m = /^(.*):([1-5])$/.exec(v);
    if (m && (FEEDBACK_OPTIONS as readonly string[]).includes(m[1]!)) out[m[1]!] = Number(m[2]);
  }
  return out;
}

const storageKey = (slug: string) => `blog.ratings.${slug}`;

type ItemProps = {
  slug: string;
  pollId: string;
  item: string;
  rating: number;
  onRate: (item: string, rating: number) => void;
  onResult: (item: string, ok: boolean, detail?: string, previous?: number) => void;
};

/** One feedback item rated on five segments; each segment is a submit button. */
function FeedbackItem({ slug, pollId, item, rating, onRate, onResult }: ItemProps) {
  const fetcher = useFetcher<BlogReply>();
  const id = useId();
  const previous = useRef<number | null>(null);

  useEffect(() => {
    if (fetcher.state !== "idle" || previous.current === null) return;
    const before = previous.current;
    previous.current = null;
    const reply = fetcher.data;
    if (reply?.status === "success") onResult(item, true);
    else onResult(item, false, reply?.message ?? "Your rating could not be saved. Please try again.", before);
  }, [fetcher.state, fetcher.data, item, onResult]);

  function rate(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const value = Number(submitter?.dataset.rating);
    if (!value || previous.current !== null) return;
    previous.current = rating;
    onRate(item, value);
    void fetcher.submit({ intent: "vote", id: pollId, option: `${item}:${value}` }, { method: "post", action: `/blogs/${slug}` });
  }

  return (
    <li className="rating-item">
      <form method="post" action={`/blogs/${slug}#feedback`} onSubmit={rate}>
        <input type="hidden" name="intent" value="vote" />
        <input type="hidden" name="id" value={pollId} />
        <fieldset>
          <legend id={`${id}-legend`}>{item}</legend>
          <div className="rating-segments">
            {RATING_STEPS.map((n) => (
              <button
                key={n}
                type="submit"
                name="option"
                value={`${item}:${n}`}
                data-rating={n}
                className={n <= rating ? "rating-segment is-on" : "rating-segment"}
                aria-pressed={n === rating}
              >
                {n}
                <span className="visually-hidden"> of 5</span>
              </button>
            ))}
          </div>
        </fieldset>
      </form>
    </li>
  );
}

type Props = {
  slug: string;
  pollId: string;
  /** This client's earlier ratings, as the server knows them. */
  mine: string[];
  serverReply?: BlogReply;
};

/**
 * The feedback poll: four items, each rated 1 to 5. Ratings are personal: the reader sees
 * their own (kept in this browser too), never anyone's counts.
 */
export function FeedbackPoll({ slug, pollId, mine, serverReply }: Props) {
  const [ratings, setRatings] = useState<Ratings>(() => ratingsFrom(mine));
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(
    serverReply ? (serverReply.status === "success" ? { ok: true, text: RATING_SAVED } : { ok: false, text: serverReply.message ?? "Your rating could not be saved." }) : null,
  );

  useEffect(() => {
    const local = readLocal<Record<string, unknown>>(storageKey(slug)) ?? {};
    const merged: Ratings = {};
    for (const item of FEEDBACK_OPTIONS) {
      const n = clamp(local[item]);
      if (n > 0) merged[item] = n;
    }
    setRatings((server) => {
      const next = { ...merged, ...server };
      writeLocal(storageKey(slug), next);
      return next;
    });
  }, [slug]);

  const onRate = (item: string, rating: number) =>
    setRatings((r) => {
      const next = { ...r, [item]: clamp(rating) };
      writeLocal(storageKey(slug), next);
      return next;
    });

  const onResult = useRef((item: string, ok: boolean, detail?: string, previous?: number) => {
    if (ok) {
      setStatus({ ok: true, text: RATING_SAVED });
      return;
    }
    setRatings((r) => {
      const next = { ...r };
      if (previous) next[item] = previous;
      else delete next[item];
      writeLocal(storageKey(slug), next);
      return next;
    });
    setStatus({ ok: false, text: detail ?? "Your rating could not be saved." });
  }).current;

  return (
    <div className="feedback" id="feedback" role="group" aria-labelledby="feedback-title">
      <h3 id="feedback-title">How did this post land with you?</h3>
      <p className="small muted">Rate each from 1 to 5. Your ratings are personal: nobody sees counts.</p>
      <ul className="rating-list">
        {FEEDBACK_OPTIONS.map((item) => (
          <FeedbackItem
            key={item}
            slug={slug}
            pollId={pollId}
            item={item}
            rating={ratings[item] ?? 0}
            onRate={onRate}
            onResult={onResult}
          />
        ))}
      </ul>
      <p className={status ? `form-status form-status-${status.ok ? "success" : "error"}` : "form-status"} role="status" aria-live="polite">
        {status?.text}
      </p>
    </div>
  );
}
