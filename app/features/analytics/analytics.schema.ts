import { z } from "zod";

/** Names, pages and slugs are stored exactly as sent, so they must already be tidy. */
export const NAME_PATTERN = /^[A-Za-z0-9._:/-]+(?: [A-Za-z0-9._:/-]+)*$/;
const Name = z
  .string()
  .min(1)
  .max(100)
  .regex(NAME_PATTERN, "may use letters, digits, dots, dashes, underscores, colons and slashes");

const Path = z.string().max(300).optional();
const Ref = z.string().max(500).optional();
const Cid = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 letters, digits, dashes or underscores")
  .optional();
/** The longest text kept in one meta value: longer text (an error report's message) is cut, not refused. */
export const META_TEXT_MAX = 200;
const Meta = z
  .record(z.string().max(40), z.union([z.string().transform((s) => s.slice(0, META_TEXT_MAX)), z.number(), z.boolean(), z.null()]))
  .refine((m) => Object.keys(m).length <= 20, "may have at most 20 keys")
  .optional();

export const TrackSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("page.view"), page: Name, path: Path, ref: Ref, cid: Cid }),
  z.object({ type: z.literal("event"), name: Name, meta: Meta, path: Path, ref: Ref, cid: Cid }),
  z.object({
    type: z.literal("blog.view"),
    slug: Name,
    src: z.enum(["site", "share"]).default("site"),
    ref: Ref,
    cid: Cid,
  }),
]);

export type TrackInput = z.infer<typeof TrackSchema>;
