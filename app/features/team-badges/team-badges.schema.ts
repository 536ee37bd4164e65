import { z } from "zod";
import { BADGE_ID_PATTERN, CATEGORIES, parseIssuedDate, type CategoryKey } from "./team-badges";

export const BadgeIdSchema = z
  .string({ message: "Badge id is required." })
  .trim()
  .min(1, "Badge id is required.")
  .max(40, "Badge id must be at most 40 characters.")
  .regex(BADGE_ID_PATTERN, "Badge id may use letters, digits, dashes and underscores only.");

/** An optional text field: trimmed, blank counts as not sent. */
const optionalText = (label: string, max: number) =>
  z
    .string({ message: `${label} must be text.` })
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .optional()
    .transform((v) => (v ? v : undefined));

/**
 * A share image: a path on this site or an http(s) address. A bare relative path is taken as
 * site-relative; data: and other schemes are refused.
 */
const ShareImage = optionalText("Image", 500)
  .transform((v) => (v && !/^[a-z][a-z0-9+.-]*:/i.test(v) && !v.startsWith("/") ? `/${v}` : v))
  .refine(
    (v) => v === undefined || (/^https?:\/\/[^\s"'<>]+$/i.test(v) || /^\/(?!\/)[^\s"'<>\\]*$/.test(v)),
    "Image must be a path on this site or an http(s) address.",
  );

/** POST /api/generate_badge_share.php, and the badge page's 'Gen Share File' (id only). */
export const GenerateBadgeShareSchema = z.object({
  id: BadgeIdSchema,
  title: optionalText("Title", 120),
  description: optionalText("Description", 500),
  ownerName: optionalText("Owner name", 80),
  issuedAt: optionalText("Issue date", 40),
  image: ShareImage,
});
export type GenerateBadgeShareInput = z.output<typeof GenerateBadgeShareSchema>;

/** What a share file stores: only the fields staff sent. */
export const BadgeShareOverridesSchema = z.object({
  title: z.string().max(120).optional(),
  description: z.string().max(500).optional(),
  ownerName: z.string().max(80).optional(),
  issuedAt: z.string().max(40).optional(),
  image: z.string().max(500).optional(),
  generatedAt: z.string().max(40).optional(),
});
export type BadgeShareOverrides = z.output<typeof BadgeShareOverridesSchema>;

export type BadgeListQuery = {
  q: string;
  wonOnly: boolean;
  category: CategoryKey;
  verify: string;
  id: string;
};

const Text = (max: number) => z.string().trim().max(max).catch("");
const Category = z.enum(CATEGORIES.map((c) => c.key) as [CategoryKey, ...CategoryKey[]]).catch("all");

/**
 * The /badges URL: ?q=, ?won= (the form sends won=0 then, when ticked, won=1, so the last
 * value wins; absent means on), ?category=, ?verify=, ?id=. Bad values fall back quietly.
 */
export function parseBadgeQuery(params: URLSearchParams): BadgeListQuery {
  const won = params.getAll("won");
  const id = params.get("id")?.trim() ?? "";
  return {
    q: Text(100).parse(params.get("q") ?? ""),
    wonOnly: won.length === 0 || won[won.length - 1] !== "0",
    category: Category.parse((params.get("category") ?? "all").toLowerCase()),
    verify: Text(60).parse(params.get("verify") ?? ""),
    id: BADGE_ID_PATTERN.test(id) ? id : "",
  };
}

/** The staff editor's holder form: who holds an earned badge, their email (optional), when it was issued. */
export const TeamBadgeHolderSchema = z.object({
  id: BadgeIdSchema,
  ownerName: z.string({ message: "Holder is required." }).trim().min(1, "Holder is required.").max(80, "Holder must be at most 80 characters."),
  holderEmail: z
    .string()
    .trim()
    .max(254, "Email must be at most 254 characters.")
    .refine((v) => v === "" || /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(v), "Enter the holder's email address, or leave it empty.")
    .default(""),
  issuedAt: z
    .string({ message: "Issue date is required." })
    .trim()
    .min(1, "Issue date is required.")
    .max(40, "Issue date must be at most 40 characters.")
    .refine((v) => parseIssuedDate(v) !== null, "Issue date must be a date such as 12 Mar 2025 or 2025-03-12."),
});
export type TeamBadgeHolderInput = z.output<typeof TeamBadgeHolderSchema>;

/** Revoking a team badge: the reason verifiers will be shown. */
export const TeamBadgeRevokeSchema = z.object({
  id: BadgeIdSchema,
  reason: z.string({ message: "Give the reason for revoking." }).trim().min(1, "Give the reason for revoking: verifiers are shown it.").max(300, "The reason must be at most 300 characters."),
});
