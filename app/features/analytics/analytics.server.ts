import crypto from "node:crypto";
import { isbot } from "isbot";
import type { Db } from "~/lib/db/db.server";
import { isDatabaseUnavailable } from "~/lib/core/database-unavailable";
import { DomainError } from "~/lib/core/domain-error";
import { getDb, nowIso } from "~/lib/db/db.server";
import type { Selectable } from "kysely";
import type { TrackInput } from "./analytics.schema";
import type { AnalyticsEventsTable } from "./analytics.tables";

export type TrackRow = Omit<Selectable<AnalyticsEventsTable>, "id">;

/** Keeps a path or referrer without its query string or fragment, which may carry personal data. */
export function stripQuery(value: string | undefined | null, max = 300): string {
  if (!value) return "";
  try {
    if (/^https?:\/\//i.test(value)) {
      const u = new URL(value);
      return (u.origin + u.pathname).slice(0, max);
    }
  } catch {
    return "";
  }
  return value.split(/[?#]/)[0]!.slice(0, max);
}

export function toRow(input: TrackInput, cid: string, ts = nowIso()): TrackRow {
  const base = { ts, ref: stripQuery(input.ref, 500), cid, src: "", meta: "{}", path: "" };
  switch (input.type) {
    case "page.view":
      return { ...base, type: "page.view", name: input.page, path: stripQuery(input.path) };
    case "event":
      return {
        ...base,
        type: "event",
        name: input.name,
        path: stripQuery(input.path),
        meta: JSON.stringify(input.meta ?? {}),
      };
    case "blog.view":
      return { ...base, type: "blog.view", name: input.slug, src: input.src };
  }
}

export const isBotAgent = (userAgent: string | null) => !!userAgent && isbot(userAgent);

const CID_COOKIE = "cid";
const CID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** The client id a request carries: its X-Client-Id header, else the cid cookie. */
export function readClientId(headers: Headers): string | undefined {
  const header = headers.get("x-client-id");
  if (header && CID_PATTERN.test(header)) return header;
  const cookie = headers.get("cookie") ?? "";
  const m = /(?:^|;\s*)cid=([A-Za-z0-9_-]{8,64})(?:;|$)/.exec(cookie);
  return m?.[1];
}

/** The caller's client id for reactions and votes: X-Client-Id, then the body's cid, then the cookie. */
export function requireClientId(headers: Headers, bodyCid: string | undefined): string {
  const header = headers.get("x-client-id")?.trim();
  const cid =
    (header && CID_PATTERN.test(header) ? header : undefined) ??
    (bodyCid && CID_PATTERN.test(bodyCid) ? bodyCid : undefined) ??
    readClientId(headers);
  if (!cid) throw new DomainError("invalid", "Client id required.");
  return cid;
}

export const newClientId = () => crypto.randomBytes(16).toString("hex");

export function clientIdCookie(cid: string, secure: boolean) {
  return `${CID_COOKIE}=${cid}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
}

// Tracking writes are batched: one transaction (one disk sync) for many views, instead of
// one per page view. A crash loses at most the last second of counts, never a form record.
const buffer: TrackRow[] = [];
let flushTimer: NodeJS.Timeout | undefined;
const FLUSH_MS = 1000;
const FLUSH_ROWS = 500;

export async function writeEvents(db: Db, rows: TrackRow[]) {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 100) {
      await trx.insertInto("analytics_events").values(rows.slice(i, i + 100)).execute();
    }
  });
}

export async function flushAnalytics() {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = undefined;
  if (buffer.length === 0) return;
  const rows = buffer.splice(0, buffer.length);
  try {
    await writeEvents(await getDb(), rows);
  } catch (e) {
    if (!isDatabaseUnavailable(e)) {
      console.error("[analytics] could not write events", e);
      return;
    }
    // The database is away for a moment: the views wait here (up to a bound) for the next try.
    const kept = rows.concat(buffer).slice(0, KEEP_WHILE_AWAY);
    buffer.length = 0;
    for (const row of kept) buffer.push(row);
    away = true;
    flushTimer ??= setTimeout(() => void flushAnalytics(), FLUSH_MS * 5);
    flushTimer.unref();
    return;
  }
  away = false;
  // Views that came while a long batch was written (after an outage) go in the next one.
  if (buffer.length && !flushTimer) {
    flushTimer = setTimeout(() => void flushAnalytics(), FLUSH_MS);
    flushTimer.unref();
  }
}

/** Page views kept while the database is away (about 10 MB); newer ones beyond are not counted. */
const KEEP_WHILE_AWAY = 50_000;
let away = false;

/** Page views waiting to be written (a shutdown while the database is away says how many are lost). */
export const bufferedEvents = () => buffer.length;

export function queueEvent(row: TrackRow) {
  if (away) {
    // Written by the retry that is already planned.
    if (buffer.length < KEEP_WHILE_AWAY) buffer.push(row);
    return;
  }
  buffer.push(row);
  if (buffer.length >= FLUSH_ROWS) void flushAnalytics();
  else if (!flushTimer) {
    flushTimer = setTimeout(() => void flushAnalytics(), FLUSH_MS);
    flushTimer.unref();
  }
}
