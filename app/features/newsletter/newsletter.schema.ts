import { z } from "zod";
import { EmailField, SourceField } from "~/lib/validation";

export const SubscribeSchema = z.object({
  email: EmailField,
  source: SourceField.default("newsletter").transform((s) => s || "newsletter"),
});
export type SubscribeInput = z.output<typeof SubscribeSchema>;

export const UnsubscribeTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);
