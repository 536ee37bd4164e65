import { DEFAULT_POLL_OPTIONS, DEFAULT_POLL_QUESTION, type ReactionCounts } from "~/features/blog/blog";

/** Client-safe pieces of the staff screen /admin/engagement: its address, words and shapes. */

export const ENGAGEMENT_PATH = "/admin/engagement";
export const SUBSCRIBER_LIMIT = 100;
export const POLL_INTENT = "ensure-poll";

/** Spec section 8 ('Engagement admin') and section 5 ('Poll create'): the product's words. */
export const ENGAGEMENT_MESSAGES = {
  reactionsFailed: "Reactions load failed",
  pollsFailed: "Polls load failed",
  subscribersFailed: "Subscribers load failed",
  loadFailed: "Load failed",
  createFailed: "Create failed",
  created: "Poll created or ensured.",
  /** The spec's admin-key prompt; here it means the session is missing or has expired. */
  enterKey: "Enter admin key",
  idRequired: "Poll id required",
} as const;

export const POLL_DEFAULTS = { question: DEFAULT_POLL_QUESTION, options: DEFAULT_POLL_OPTIONS } as const;

/** A block of the screen: its rows, or the spec's failure text when its query threw. */
export type Block<T> = { ok: true; rows: T } | { ok: false; error: string };

export type ReactionRow = { slug: string; counts: ReactionCounts; total: number };
export type PollView = { id: string; question: string; options: Record<string, number> };
/** mailRefusedAt: when the address's mail server refused a message for good (no bulk mail until it subscribes again). */
export type SubscriberRow = { email: string; status: string; source: string; createdAt: string; mailRefusedAt?: string };

/** What the poll form's reply carries: what was typed, so a refused form keeps it (JavaScript off too), or the poll made. */
export type PollResult = {
  values?: { id: string; question: string; options: string; template: boolean };
  id?: string;
};

/** Rating polls ('Inspired me:1' to ':5' for each item): counts per item and step, or null. */
export function ratingGrid(options: Record<string, number>) {
  const items = new Map<string, number[]>();
  for (const [option, n] of Object.entries(options)) {
    const m = /^(.*):([1-5])$/.exec(option);
    if (!m) return null;
    const steps = items.get(m[1]!) ?? [0, 0, 0, 0, 0];
    steps[Number(m[2]) - 1]! += n;
    items.set(m[1]!, steps);
  }
  if (items.size === 0) return null;
  return [...items].map(([item, steps]) => {
    const votes = steps.reduce((s, n) => s + n, 0);
    const average = votes ? steps.reduce((s, n, i) => s + n * (i + 1), 0) / votes : null;
    return { item, steps, votes, average };
  });
}
