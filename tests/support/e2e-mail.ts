import { MAIL_API } from "./e2e-env";

/** One message as the mail catcher (tests/support/mail-catcher.mjs) received and parsed it. */
export type CaughtMail = {
  id: number;
  receivedAt: string;
  envelope: { from: string; to: string[] };
  to: string[];
  from: string;
  replyTo: string[];
  subject: string;
  text: string;
  html: string;
  /** Raw header values, keyed by lower-case header name. */
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; size: number }[];
};

export async function listMail(): Promise<CaughtMail[]> {
  const res = await fetch(`${MAIL_API}/messages`);
  if (!res.ok) throw new Error(`mail catcher answered ${res.status}`);
  return (await res.json()) as CaughtMail[];
}

/** Polls the catcher until a message matches; fails with what did arrive if none does. */
export async function waitForMail(
  predicate: (m: CaughtMail) => boolean,
  { timeout = 15_000, interval = 200 } = {},
): Promise<CaughtMail> {
  const deadline = Date.now() + timeout;
  let seen: CaughtMail[] = [];
  for (;;) {
    seen = await listMail();
    const hit = seen.find(predicate);
    if (hit) return hit;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, interval));
  }
  const summary = seen.map((m) => `  #${m.id} to ${m.to.join(",")}: ${m.subject}`).join("\n") || "  (none)";
  throw new Error(`No matching mail within ${timeout} ms. Received:\n${summary}`);
}

/** Every mail for `address` so far (as recipient or Reply-To). */
export async function mailFor(address: string): Promise<CaughtMail[]> {
  const a = address.toLowerCase();
  return (await listMail()).filter((m) => m.to.includes(a) || m.replyTo.includes(a));
}
