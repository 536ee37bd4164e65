import crypto from "node:crypto";
import { onSalt } from "~/lib/server/cluster-bus.server";
import { readClientId } from "./analytics.server";

/**
 * The rule for events that arrive without a client id. Today every event has one (the
 * X-Client-Id header, the cid cookie the server sets with the first page, or the body's cid),
 * but a browser that refuses cookies and storage sends none. 'Unique' then counts this instead:
 * an HMAC of the connection's address and the browser's user agent under a random salt that
 * lives in memory for one UTC day and is never written anywhere. Neither the address nor the
 * salt is stored, so the same visitor counts once that day and cannot be followed to the next
 * (a restart starts a new salt: at worst a visitor counts twice that day). With several server
 * processes the supervisor holds the day's salt and hands it to each (in memory, over IPC), so
 * a visitor hashes the same whichever process answers.
 */
let salt: { day: string; key: Buffer } | undefined;
onSalt((day, key) => {
  salt = { day, key };
});

export function dailyVisitorId(address: string, userAgent: string | null, now = Date.now()): string {
  const day = new Date(now).toISOString().slice(0, 10);
  if (salt?.day !== day) salt = { day, key: crypto.randomBytes(32) };
  return crypto.createHmac("sha256", salt.key).update(`${address}\n${userAgent ?? ""}`).digest("hex").slice(0, 32);
}

/** The client id an event is counted under: the browser's own, else the daily hash. */
export function clientIdFor(headers: Headers, address: string, sent?: string, now = Date.now()): string {
  return readClientId(headers) ?? sent ?? dailyVisitorId(address, headers.get("user-agent"), now);
}
