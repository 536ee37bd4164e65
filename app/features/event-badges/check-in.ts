/** A supporter as the door screen and the badge table show them. */
export type DoorEntry = {
  id: string;
  name: string;
  tierName: string;
  hardCopy: boolean;
  hasPortrait: boolean;
  checkedInAt: string | null;
};

/** What the check-in screen's forms answer (and what the page shows after a scan). */
export type CheckInOutcome = {
  entry: DoorEntry;
  already: boolean;
  checkedInAt: string;
  counts: { arrived: number; approved: number };
};

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
