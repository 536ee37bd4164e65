import { z } from "zod";
import { CATEGORIES, parseIssuedDate } from "./team-badges";
import { BadgeIdSchema } from "./team-badges.schema";

/** The staff editor's forms for a badge's own fields: create (id given or generated), edit, issue, retire. */

const CATEGORY_KEYS = CATEGORIES.filter((c) => c.key !== "all").map((c) => c.key) as ["dev", "evangelism", "media", "community"];

const title = z.string({ message: "Title is required." }).trim().min(1, "Title is required.").max(80, "Title must be at most 80 characters.");
const subtitle = z.string().trim().max(120, "Team must be at most 120 characters.").default("");
const category = z.enum(CATEGORY_KEYS, { message: "Choose a category: Developers, Evangelism, Media or Community." });
const description = z.string().trim().max(600, "Description must be at most 600 characters.").default("");
const progress = z.coerce
  .number({ message: "Progress is a number from 0 to 100." })
  .int("Progress is a whole number from 0 to 100.")
  .min(0, "Progress is a number from 0 to 100.")
  .max(100, "Progress is a number from 0 to 100.")
  .default(0);
const ownerName = z.string().trim().max(80, "Holder must be at most 80 characters.").default("");
const holderEmail = z
  .string()
  .trim()
  .max(254, "Email must be at most 254 characters.")
  .refine((v) => v === "" || /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(v), "Enter the holder's email address, or leave it empty.")
  .transform((v) => v.toLowerCase())
  .default("");
const issuedAt = z
  .string()
  .trim()
  .max(40, "Issue date must be at most 40 characters.")
  .refine((v) => v === "" || parseIssuedDate(v) !== null, "Issue date must be a date such as 12 Mar 2025 or 2025-03-12.")
  .default("");
/** A checkbox: present ("on", "1", "true") is ticked. */
const ticked = z.preprocess((v) => v === "on" || v === "1" || v === "true" || v === true, z.boolean());

/** Badge details staff can change after the badge exists (never its id). */
export const TeamBadgeDetailsSchema = z.object({ id: BadgeIdSchema, title, subtitle, category, description, progress });
export type TeamBadgeDetailsInput = z.output<typeof TeamBadgeDetailsSchema>;

/** A new badge: an id staff chose (the old site's, say) or none, for one generated like b6d56. */
export const TeamBadgeCreateSchema = z
  .object({
    id: z
      .string()
      .trim()
      .transform((v) => v.toLowerCase())
      .pipe(z.union([z.literal(""), BadgeIdSchema]))
      .default("")
      .transform((v) => v || undefined),
    title,
    subtitle,
    category,
    description,
    progress,
    earned: ticked.default(false),
    ownerName,
    holderEmail,
    issuedAt,
  })
  .superRefine((b, ctx) => {
    if (!b.earned) return;
    if (!b.ownerName) ctx.addIssue({ code: "custom", path: ["ownerName"], message: "An issued badge needs its holder." });
    if (!b.issuedAt) ctx.addIssue({ code: "custom", path: ["issuedAt"], message: "An issued badge needs its issue date." });
  });
export type TeamBadgeCreateInput = z.output<typeof TeamBadgeCreateSchema>;

/** Retiring a badge: an optional reason verifiers are shown (its record says revoked). */
export const TeamBadgeRetireSchema = z.object({
  id: BadgeIdSchema,
  reason: z.string().trim().max(300, "The reason must be at most 300 characters.").default(""),
});
