import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { REACTION_LABELS, REACTIONS, type Reaction, type ReactionCounts } from "../blog";
import { readLocal, writeLocal, type BlogReply } from "./blog-reply";

const ICONS: Record<Reaction, string> = {
  like: "M7 10v11H4a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1h3Zm0 0 4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.3 8A2 2 0 0 1 18.2 21H7",
  love: "M20.8 4.6a5.5 5.5 0 0 0-7.8 0L12 5.7l-1-1.1a5.5 5.5 0 0 0-7.8 7.8l1 1.1 7.8 7.7 7.8-7.7 1-1.1a5.5 5.5 0 0 0 0-7.8Z",
  insightful: "M9 18h6m-5 3h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2V16h5v-.1c0-.8.4-1.5 1-2A6 6 0 0 0 12 3Z",
  pray: "M11 21H5v-3l3-3V7a1.5 1.5 0 0 1 3 0v14Zm2 0h6v-3l-3-3V7a1.5 1.5 0 0 0-3 0v14Z",
  clap: "M12 2v4m0 12v4M2 12h4m12 0h4M4.9 4.9l2.8 2.8m8.6 8.6 2.8 2.8M4.9 19.1l2.8-2.8m8.6-8.6 2.8-2.8M12 9l1 2 2 1-2 1-1 2-1-2-2-1 2-1Z",
};

export function ReactionIcon({ reaction }: { reaction: Reaction }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path d={ICONS[reaction]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

type Props = {
  slug: string;
  counts: ReactionCounts;
  /** This client's reactions as the server knows them (by client id). */
  chosen: Reaction[];
  /** A reply to a plain form post (JavaScript off). */
  serverReply?: BlogReply;
};

const storageKey = (slug: string) => `blog.reactions.${slug}`;
const isReaction = (r: unknown): r is Reaction => typeof r === "string" && (REACTIONS as readonly string[]).includes(r);

/**
 * The five reactions with their counts. Each is a small form (intent=react), so a reader
 * without JavaScript reacts too. With it: the count moves at once (never below 0), one call
 * at a time, and a failed call puts things back. Chosen reactions are remembered per post.
 */
export function ReactionBar({ slug, counts: serverCounts, chosen: serverChosen, serverReply }: Props) {
  const fetcher = useFetcher<BlogReply>();
  const [counts, setCounts] = useState(serverCounts);
  const [chosen, setChosen] = useState<Reaction[]>(serverChosen);
  const [error, setError] = useState<string | undefined>(serverReply?.status === "error" ? serverReply.message : undefined);
  const pending = useRef<{ counts: ReactionCounts; chosen: Reaction[] } | null>(null);
  const action = `/blogs/${slug}`;

  // What this browser remembers, added to what the server knows for this client.
  useEffect(() => {
    const local = (readLocal<unknown[]>(storageKey(slug)) ?? []).filter(isReaction);
    const merged = [...new Set([...serverChosen, ...local])];
    setChosen(merged);
    writeLocal(storageKey(slug), merged);
    // Once per post: later changes come from this reader's own presses.
  }, [slug]);

  useEffect(() => {
    if (fetcher.state !== "idle" || !pending.current) return;
    const before = pending.current;
    pending.current = null;
    const reply = fetcher.data;
    if (reply?.status === "success" && reply.result?.counts) {
      setCounts(reply.result.counts);
      const mine = (reply.result.chosen ?? []).filter(isReaction);
      setChosen(mine);
      writeLocal(storageKey(slug), mine);
      setError(undefined);
    } else {
      setCounts(before.counts);
      setChosen(before.chosen);
      writeLocal(storageKey(slug), before.chosen);
      setError(reply?.message ?? "Your reaction could not be saved. Please try again.");
    }
  }, [fetcher.state, fetcher.data, slug]);

  function press(e: React.FormEvent<HTMLFormElement>, reaction: Reaction) {
    e.preventDefault();
    if (pending.current || fetcher.state !== "idle") return; // one reaction call at a time
    const undo = chosen.includes(reaction);
    pending.current = { counts, chosen };
    setCounts({ ...counts, [reaction]: Math.max(0, counts[reaction] + (undo ? -1 : 1)) });
    const next = undo ? chosen.filter((r) => r !== reaction) : [...chosen, reaction];
    setChosen(next);
    writeLocal(storageKey(slug), next);
    setError(undefined);
    void fetcher.submit({ intent: "react", reaction, undo: undo ? "1" : "0" }, { method: "post", action });
  }

  return (
    <section className="reactions" id="reactions" aria-labelledby="reactions-title" data-scripts-start="near">
      <h2 id="reactions-title" className="engage-title">
        React to this post
      </h2>
      <ul className="reaction-list" aria-busy={fetcher.state !== "idle"}>
        {REACTIONS.map((r) => {
          const on = chosen.includes(r);
          return (
            <li key={r}>
              <form method="post" action={`${action}#reactions`} onSubmit={(e) => press(e, r)}>
                <input type="hidden" name="intent" value="react" />
                <input type="hidden" name="reaction" value={r} />
                <input type="hidden" name="undo" value={on ? "1" : "0"} />
                <button type="submit" className="reaction" aria-pressed={on}>
                  <ReactionIcon reaction={r} />
                  <span className="reaction-label">{REACTION_LABELS[r]}</span>
                  <span className="reaction-count">{counts[r]}</span>
                </button>
              </form>
            </li>
          );
        })}
      </ul>
      <p className={error ? "form-status form-status-error" : "form-status"} role="status" aria-live="polite">
        {error}
      </p>
    </section>
  );
}
