/**
 * Why an order that was approved, or was on its way to be, does not get in: its badge was
 * revoked (with the reason staff gave), or the order was rejected (with the note sent to the
 * supporter). Either way the door refuses it, in red, with that reason.
 */
export type DoorRefusal = { kind: "revoked" | "rejected"; at: string | null; reason: string };

/** A supporter as the door screen and the badge table show them. */
export type DoorEntry = {
  id: string;
  name: string;
  tierName: string;
  hardCopy: boolean;
  hasPortrait: boolean;
  checkedInAt: string | null;
  /** Set when this order may not come in (revoked or rejected). */
  refused: DoorRefusal | null;
};

/**
 * What the check-in screen's forms answer (and what the page shows after a scan). A refused
 * order comes back with its entry (refused set) and no check-in time.
 */
export type CheckInOutcome = {
  entry: DoorEntry;
  already: boolean;
  checkedInAt: string | null;
  counts: { arrived: number; approved: number };
};

/** The door's words for a refusal: a plain sentence with the reason (also the API's error). */
export function refusalText(entry: Pick<DoorEntry, "id" | "name" | "refused">): string {
  const r = entry.refused;
  if (!r) return "";
  const reason = r.reason.trim() || "no reason was written down.";
  return r.kind === "revoked"
    ? `Do not let in: the badge of ${entry.name} (${entry.id}) was revoked. Reason: ${reason}`
    : `Do not let in: the order of ${entry.name} (${entry.id}) was rejected. Reason: ${reason}`;
}

/**
 * A reference as typed at the door: with or without 'BO-', any case, with spaces or dashes
 * ('Q9J65J', 'bo-q9j 65j', 'BO Q9J-65J'). Null when it cannot be a reference.
 */
export function doorReference(text: string): string | null {
  const compact = text.toUpperCase().replace(/[\s\-_.]/g, "");
  // 'B0' for 'BO' is an easy slip on a phone keyboard.
  const six = compact.length === 8 && /^B[O0]/.test(compact) ? compact.slice(2) : compact;
  return /^[0-9A-Z]{6}$/.test(six) ? `BO-${six}` : null;
}

export const CHECK_IN_INTENTS = ["scan", "scan-photo", "check-in"] as const;
export type CheckInIntent = (typeof CHECK_IN_INTENTS)[number];

/** A photo of a ticket: at most this many bytes. */
export const TICKET_PHOTO_MAX_BYTES = 8 * 1024 * 1024;

export const CHECK_IN_TEXT = {
  noCode: "No QR code could be read in that picture. Hold the code flat and close, or type the reference.",
  noPhoto: "Take or choose a picture of the entry QR code.",
  tooLarge: "That picture is larger than 8 MB.",
  notAPicture: "That file is not a picture the screen can read (JPEG, PNG, WebP, HEIC).",
} as const;
