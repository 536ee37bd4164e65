import { z } from "zod";
import { NAME_PATTERN } from "~/features/analytics/analytics.schema";
import { ENGAGEMENT_MESSAGES, POLL_INTENT } from "./engagement-screen";

/**
 * The create-or-ensure poll form of /admin/engagement (spec section 5, 'Poll create'): the id
 * is required; options are comma-split, the first (or 'A') being the seed option; the template
 * box asks for the five-step feedback options instead.
 */
export const PollFormSchema = z.object({
  intent: z.literal(POLL_INTENT),
  id: z
    .string({ error: ENGAGEMENT_MESSAGES.idRequired })
    .trim()
    .min(1, ENGAGEMENT_MESSAGES.idRequired)
    .max(100, "Poll ids must be under 100 characters.")
    .regex(NAME_PATTERN, "Poll ids use letters, digits, dots, dashes, underscores and colons."),
  question: z.string().trim().max(200, "Questions must be under 200 characters.").optional(),
  options: z.string().max(2000, "Options must be under 2,000 characters.").optional(),
  template: z.literal("on").optional(),
});
export type PollForm = z.output<typeof PollFormSchema>;

/** 'Yes, No,,Maybe' -> ['Yes', 'No', 'Maybe'] */
export const splitOptions = (text: string | undefined) =>
  (text ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
