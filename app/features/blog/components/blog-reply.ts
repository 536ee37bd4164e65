import type { Reply } from "~/lib/core/forms";
import type { Reaction, ReactionCounts } from "../blog";

/** What the blog pages' replies carry besides the words (each named by its intent): the new counts. */
export type BlogResult = {
  /** intent=react: the post's counts and this client's reactions after the change. */
  counts?: ReactionCounts;
  chosen?: Reaction[];
  /** intent=vote: which poll (errors too), its counts (never for the feedback poll) and this client's votes. */
  poll?: string;
  options?: Record<string, number>;
  mine?: string[];
};

export type BlogReply = Reply<BlogResult>;

/** The reply when it answers `intent` (and for votes, `poll`), else nothing. */
export function replyFor(reply: unknown, intent: string, poll?: string): BlogReply | undefined {
  const r = reply as BlogReply | undefined;
  if (!r || r.intent !== intent) return undefined;
  if (poll !== undefined && r.result?.poll !== poll) return undefined;
  return r;
}

/** Per-post memory in the browser (chosen reactions, personal ratings); never throws. */
export function readLocal<T>(key: string): T | undefined {
  try {
    const raw = window.localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function writeLocal(key: string, value: unknown) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or a full store: the server still remembers by client id.
  }
}
