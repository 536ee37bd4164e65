import type { Tier } from "./tiers";

/** How close the evening is to its targets (GET /api/event_progress.php): approved orders only, no personal data. */
export type EventProgress = {
  target: number;
  raised: number;
  currency: "KES";
  tiers: { key: Tier["key"]; name: string; goal: number; supporters: number }[];
};

export const EVENT_PROGRESS_API = "/api/event_progress.php";
/** How often an open event page asks for new figures. */
export const PROGRESS_REFRESH_MS = 30_000;

/** A bar's filled share, 0-100, from a count and its goal (never past full). */
export const percentOf = (value: number, goal: number) => (goal > 0 ? Math.min(100, Math.round((value / goal) * 100)) : 0);

export const supportersOf = (progress: EventProgress | undefined, key: Tier["key"]) => progress?.tiers.find((t) => t.key === key)?.supporters ?? 0;

/** A tier's target as the figures say (the event record's), else the tier's own. */
export const goalIn = (progress: EventProgress | undefined, tier: Tier) => progress?.tiers.find((t) => t.key === tier.key)?.goal ?? tier.goal;
