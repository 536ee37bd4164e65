import { z } from "zod";
import { isHttpsUrl, isImageAddress, SLUG_PATTERN } from "~/lib/core/rules";
import { NAME_PATTERN } from "../analytics/analytics.schema";
import { REACTIONS } from "./blog";
import { SERIES_ID_PATTERN } from "./series";

const SERIES_ID_PATTERN_OR_EMPTY = new RegExp(`^$|${SERIES_ID_PATTERN.source}`);

export { SLUG_PATTERN };
const SiteOrHttps = z
  .string()
  .trim()
  .max(500, "Addresses must be under 500 characters.")
  .refine((v) => v === "" || isImageAddress(v), "Use a path on this site (/images/...) or an https address.");

export const BlogPostSchema = z.object({
  slug: z.string().trim().min(1, "Every post needs a slug.").max(80, "Slugs must be under 80 characters.").regex(SLUG_PATTERN, "Slugs use lower-case letters, digits and single dashes (e.g. friday-vespers)."),
  title: z.string().trim().min(1, "Every post needs a title.").max(300, "Titles must be under 300 characters."),
  summary: z.string().trim().max(600, "Summaries must be under 600 characters.").default(""),
  author: z.string().trim().max(80, "Author names must be under 80 characters.").default(""),
  date: z.string().trim().max(40, "Dates must be under 40 characters.").default(() => String(new Date().getFullYear())).transform((d) => d || String(new Date().getFullYear())),
  tags: z.array(z.string().trim().min(1).max(30)).max(12, "At most 12 tags.").default([]),
  image: SiteOrHttps.default(""),
  url: z.string().trim().max(500).refine((v) => v === "" || isHttpsUrl(v), "The LinkedIn link must be an https address.").default(""),
  audioVideoId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{6,20}$/, "The audio video id is the 11-character id from the video's address.")
    .nullish()
    .or(z.literal("").transform(() => undefined))
    .transform((v) => v ?? undefined),
  contentHtml: z
    .string()
    .max(200_000, "Post content must be under 200,000 characters.")
    .nullish()
    .transform((v) => v ?? undefined),
  /** The series the post belongs to; "" takes it out of its series, absent keeps what it had. */
  seriesId: z.string().trim().regex(SERIES_ID_PATTERN_OR_EMPTY, "A series id uses letters, digits, dashes and underscores (e.g. abs0001).").optional(),
});
export type BlogPostInput = z.output<typeof BlogPostSchema>;

export const BlogListSchema = z
  .array(BlogPostSchema)
  .max(500, "At most 500 posts.")
  .superRefine((posts, ctx) => {
    const seen = new Set<string>();
    for (const [i, p] of posts.entries()) {
      if (seen.has(p.slug)) ctx.addIssue({ code: "custom", path: [i, "slug"], message: `Two posts share the slug "${p.slug}".` });
      seen.add(p.slug);
    }
  });

const Cid = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "Client id must be 8 to 64 letters, digits, dashes or underscores.");
const Undo = z.preprocess((v) => v === true || v === "true" || v === "1" || v === 1, z.boolean());

export const ReactionSchema = z.object({
  // The old client's slugs too (sabbath_rest): the route reads them as the post they moved to.
  slug: z.string().trim().regex(/^[A-Za-z0-9_-]+$/, "Unknown post.").max(80),
  reaction: z.enum(REACTIONS, { error: `reaction must be one of ${REACTIONS.join(", ")}.` }),
  undo: Undo.default(false),
  cid: Cid.optional(),
});

const PollId = z.string({ error: "Poll id required" }).trim().min(1, "Poll id required").max(100).regex(NAME_PATTERN, "Poll ids use letters, digits, dots, dashes and underscores.");
export const PollVoteSchema = z.object({
  id: PollId,
  option: z.string({ error: "Choose an option." }).trim().min(1, "Choose an option.").max(100),
  cid: Cid.optional(),
});

/** Staff create or ensure a poll: options comma-split; the first (or 'A') is the seed option. */
export const PollCreateSchema = z.object({
  id: PollId,
  question: z.string().trim().max(200).default(""),
  initialOptions: z.union([z.string().max(2000), z.array(z.string().max(100)).max(50)]).optional(),
  option: z.string().trim().max(100).optional(),
});
