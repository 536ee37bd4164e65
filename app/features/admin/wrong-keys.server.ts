import { recordActivity } from "~/features/activity/activity.server";
import { getDb, type Db } from "~/lib/db/db.server";

/**
 * Wrong admin keys in the activity log. Until an address is throttled each wrong key is one
 * entry (at most five per address in 15 minutes); once it is throttled, its refused guesses
 * are one entry per address per 15-minute block whose count is brought up to date every few
 * seconds, so a flood of guesses costs memory and not a disk write each.
 */
export const WRONG_KEY_TYPES = {
  form: "admin.sign_in_failed",
  api: "admin.api_key_failed",
  throttled: "admin.key_throttled",
} as const;

const BLOCK_MS = 15 * 60_000;
const FLUSH_MS = 2_000;
const DAY_MS = 86_400_000;

type Block = { row: Promise<number>; endsAt: number; count: number; written: number };
const blocks = new Map<string, Block>();
let flushTimer: ReturnType<typeof setTimeout> | undefined;
let flushing: Promise<void> = Promise.resolve();

const throttledMessage = (n: number) =>
  `${n} wrong admin ${n === 1 ? "key" : "keys"} refused while this address was throttled`;

export async function recordWrongKey(
  db: Db,
  guess: { address: string; via: "form" | "api"; throttled: boolean },
) {
  if (!guess.throttled) {
    await recordActivity(db, {
      type: WRONG_KEY_TYPES[guess.via],
      message: guess.via === "form" ? "Wrong admin key" : "Wrong admin key (JSON API)",
      actorIp: guess.address,
    });
    return;
  }
  const now = Date.now();
  const open = blocks.get(guess.address);
  if (open && now < open.endsAt) {
    open.count++;
    flushTimer ??= setTimeout(() => void flushWrongKeys(), FLUSH_MS);
    flushTimer.unref?.();
    return;
  }
  // The first refused guess of a block is written at once: the attack is on record even if
  // the process stops a moment later.
  const row = recordActivity(db, {
    type: WRONG_KEY_TYPES.throttled,
    message: throttledMessage(1),
    meta: { count: 1 },
    actorIp: guess.address,
  });
  blocks.set(guess.address, { row, endsAt: now + BLOCK_MS, count: 1, written: 1 });
  await row;
}

/** Writes the counts of throttled guesses that are not in the log yet. */
export function flushWrongKeys(): Promise<void> {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = undefined;
  flushing = flushing.then(writeCounts, writeCounts);
  return flushing;
}

async function writeCounts() {
  if (blocks.size === 0) return;
  const db = await getDb();
  const now = Date.now();
  for (const [address, block] of blocks) {
    if (block.count > block.written) {
      const n = block.count;
      try {
        const id = await block.row;
        await db
          .updateTable("activity")
          .set({ message: throttledMessage(n), meta: JSON.stringify({ count: n }) })
          .where("id", "=", id)
          .execute();
        block.written = n;
      } catch (e) {
        console.error("[admin] could not record throttled admin keys", e);
      }
    }
    if (now >= block.endsAt && block.count === block.written) blocks.delete(address);
  }
}

export type WrongKeySummary = { keys: number; addresses: number };

/** Wrong admin keys in the last 24 hours, and from how many addresses; null when none. */
export async function wrongKeySummary(db: Db, now = Date.now()): Promise<WrongKeySummary | null> {
  await flushWrongKeys();
  const rows = await db
    .selectFrom("activity")
    .select(["type", "actor_ip", "meta"])
    .where("type", "in", Object.values(WRONG_KEY_TYPES))
    .where("ts", ">=", new Date(now - DAY_MS).toISOString())
    .execute();
  if (rows.length === 0) return null;
  let keys = 0;
  const addresses = new Set<string>();
  for (const r of rows) {
    addresses.add(r.actor_ip);
    if (r.type !== WRONG_KEY_TYPES.throttled) keys += 1;
    else keys += Math.max(1, Number((JSON.parse(r.meta) as { count?: unknown }).count) || 1);
  }
  return { keys, addresses: addresses.size };
}

export function resetWrongKeysForTests() {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = undefined;
  blocks.clear();
}
