import { z } from "zod";
import { TIER_KEYS } from "./tiers";
import { isHttpUrl } from "~/lib/core/rules";
import {
  NAME_MESSAGE,
  PORTRAIT_URL_MAX_LENGTH,
  PORTRAIT_URL_MESSAGE,
  SAMPLE_NAME,
  SHARE_URL_MAX_LENGTH,
  SHARE_URL_MESSAGE,
} from "./preview";
import { MAX_NAME_LENGTH } from "../badge-art/text";

/** The query of /event/previews/image.png. */
export const PreviewImageSchema = z.object({
  kind: z.enum(["poster", "badge"], { message: "Kind must be poster or badge." }),
  tier: z.enum(TIER_KEYS, { message: `Tier must be one of ${TIER_KEYS.join(", ")}.` }),
  name: z
    .string()
    .trim()
    .max(MAX_NAME_LENGTH, NAME_MESSAGE)
    .optional()
    .transform((v) => v || SAMPLE_NAME),
  share: z
    .string()
    .trim()
    .max(SHARE_URL_MAX_LENGTH, SHARE_URL_MESSAGE)
    .refine(isHttpUrl, SHARE_URL_MESSAGE)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  portrait: z
    .string()
    .trim()
    .max(PORTRAIT_URL_MAX_LENGTH, PORTRAIT_URL_MESSAGE)
    .optional()
    .transform((v) => v || undefined),
});

export type PreviewImageQuery = z.infer<typeof PreviewImageSchema>;
