import { z } from "zod";
import { EmailField, SourceField } from "~/lib/core/validation";

export const NEWSLETTER_VARIANTS = ["footer", "about", "event", "vespers"] as const;

export const SubscribeSchema = z.object({
  email: EmailField,
  source: SourceField.default("newsletter").transform((s) => s || "newsletter"),
  /** Which box sent it, so a page without JavaScript can answer in that box's words. */
  variant: z.enum(NEWSLETTER_VARIANTS).catch("footer").default("footer"),
});
export type SubscribeInput = z.output<typeof SubscribeSchema>;

export const UnsubscribeTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);
