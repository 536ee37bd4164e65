/**
 * Client-safe pieces of the personal-data tools: how a typed search is read (an email, a phone
 * number in any spelling the order forms accept, or a name), and the words staff read.
 */

export type PersonKey = { kind: "email"; email: string } | { kind: "phone"; phone: string } | { kind: "name"; name: string };

/** What identifies the person: lower-cased emails, the nine digits of each phone, names as written. */
export type Identifiers = { emails: string[]; phones: string[]; names: string[] };

/** One record that holds some of the person's data, as staff see it in the search. */
export type Holding = {
  place: string;
  table: string;
  ref: string;
  holds: string[];
  detail: string;
  /** A join application's own record: its id, and whether staff keep it past the retention period. */
  application?: { id: number; kept: boolean };
};

export type PersonFound = { key: PersonKey; identifiers: Identifiers; holdings: Holding[]; files: string[] };

/** What a search may be at most; longer is no one's email, phone or name. */
export const PERSON_QUERY_MAX = 120;

export const PERSON_QUERY_MESSAGE = "Type an email address, a phone number or a name.";
export const ERASE_NEEDS_CONTACT_MESSAGE = "Erase and export work on an email address or a phone number, not a name alone.";
export const NOBODY_FOUND_MESSAGE = "Nothing on record for that email address or phone number.";

/**
 * The nine digits that make a Kenyan mobile number, however it was typed: '0712 345 678',
 * '+254 712-345-678', '254712345678', '(0712) 345678', '712345678' -> '712345678'; else null.
 */
export function phoneCore(text: string): string | null {
  const t = text.replace(/[\s\-().]/g, "");
  const m = /^(?:0|\+?254)?([17]\d{8})$/.exec(t);
  return m ? m[1]! : null;
}

/** A typed search as a key: an email address, a phone number, or (anything else) a name. */
export function personKeyOf(query: string): PersonKey | null {
  const q = query.trim().replace(/\s+/g, " ");
  if (!q || q.length > PERSON_QUERY_MAX) return null;
  if (q.includes("@")) return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(q) ? { kind: "email", email: q.toLowerCase() } : null;
  const phone = phoneCore(q);
  if (phone) return { kind: "phone", phone };
  if (/\d{4,}/.test(q) || q.length < 3) return null;
  return { kind: "name", name: q };
}

/** What an erasure takes away, said to staff before they confirm. */
export const ERASE_TAKES =
  "Names, email addresses, phone numbers, portraits, badge kits, mail bodies, wall entries, applications and subscriptions go. Order references, amounts, dates, M-Pesa receipts and payment states stay, without the person.";

/** The person's own page for their data, and how long a link it mails works. */
export const MY_DATA_PATH = "/privacy/my-data";
export const LINK_HOURS = 24;

