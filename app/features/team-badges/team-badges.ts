/** Team badges: the shape the pages use and the rules both server and browser need. */
import { linkedInAddToProfileUrl } from "~/lib/browser/share";

export type TeamBadge = {
  id: string;
  title: string;
  subtitle: string;
  description: string;
  category: string;
  progress: number;
  earned: boolean;
  ownerName: string;
  /** A display date, as staff typed it ('12 Mar 2025'). */
  issuedAt: string;
  icon: string;
  colour: string;
  imageSrc: string;
};

/** A team badge in the staff editor, with what the public list leaves out. */
export type TeamBadgeAdminRow = TeamBadge & {
  holderEmail: string;
  revoked: { at: string; reason: string } | null;
  /** When staff retired it (hidden from /badges), or null. */
  retiredAt: string | null;
  /** True when its picture is one staff uploaded (else it is drawn). */
  uploadedImage: boolean;
};

export const CATEGORIES = [
  { key: "all", label: "All" },
  { key: "dev", label: "Developers" },
  { key: "evangelism", label: "Evangelism" },
  { key: "media", label: "Media" },
  { key: "community", label: "Community" },
] as const;

export type CategoryKey = (typeof CATEGORIES)[number]["key"];

export const categoryLabel = (key: string) =>
  CATEGORIES.find((c) => c.key === key && key !== "all")?.label ?? (key || "Team");

/** Badge ids are short and URL-safe ('b5692'); nothing else is ever looked up or put in a path. */
export const BADGE_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/i;

export const badgeImagePath = (id: string) => `/open/badges/${id}.png`;
export const badgeSharePath = (id: string) => `/share/${id}.html`;
export const badgeVerifyPath = (id: string) => `/badges?id=${encodeURIComponent(id)}`;

/** Spec section 9: the badge title with spaces as underscores, then the id, as png. */
export function badgeDownloadFilename(title: string, id: string): string {
  const base = title
    .trim()
    .replace(/[\\/:*?"<>|\u0000-\u001f]/g, "")
    .replace(/\s+/g, "_");
  return `${base ? `${base}_` : ""}${id}.png`;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** '12 Mar 2025' (or an ISO date) -> { year, month, iso }; null when it cannot be read. */
export function parseIssuedDate(value: string): { year: number; month: number; iso: string } | null {
  const text = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  let y: number, m: number, d: number;
  if (iso) {
    [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else {
    const dmy = /^(\d{1,2})\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})$/.exec(text);
    // The old site wrote its dates month first: 'Aug 19, 2025'.
    const mdy = dmy ? null : /^([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$/.exec(text);
    const month = dmy ? MONTHS.indexOf(dmy[2]!.slice(0, 3).toLowerCase()) : mdy ? MONTHS.indexOf(mdy[1]!.slice(0, 3).toLowerCase()) : -1;
    if ((!dmy && !mdy) || month < 0) return null;
    [y, m, d] = dmy ? [Number(dmy[3]), month + 1, Number(dmy[1])] : [Number(mdy![3]), month + 1, Number(mdy![2])];
  }
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const pad = (n: number) => String(n).padStart(2, "0");
  return { year: y, month: m, iso: `${y}-${pad(m)}-${pad(d)}` };
}

/** LinkedIn's add-to-profile link for a certification, pointing back at our verify page. */
export function linkedInAddUrl(badge: TeamBadge, opts: { organizationName: string; verifyUrl: string }) {
  const date = parseIssuedDate(badge.issuedAt);
  return linkedInAddToProfileUrl({
    name: badge.title,
    organizationName: opts.organizationName,
    issueYear: date ? String(date.year) : "",
    issueMonth: date ? String(date.month) : "",
    certUrl: opts.verifyUrl,
    certId: badge.id,
  });
}

/** A colour staff typed, if it is a plain hex colour; anything else is ignored. */
export const safeColour = (value: string, fallback: string) =>
  /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i.test(value.trim()) ? value.trim() : fallback;
