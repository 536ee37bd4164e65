import { z } from "zod";
import { EmailField, PhoneField, SourceField } from "~/lib/validation";

import { ALL_ROLES, GENERAL_INTEREST, JOIN_ROLES } from "./roles";

export { ALL_ROLES, GENERAL_INTEREST, JOIN_ROLES };

export const NAME_MESSAGE = "Please enter your full name.";
export const ROLE_MESSAGE = "Please choose a role from the list.";

const Message = z.string().trim().max(2000, "Please keep the message under 2,000 characters.");

/** What /api/send.php takes: the hero sends only an email, so the name may be empty there. */
export const ApplicationSchema = z.object({
  name: z.string().trim().max(120, "Please keep the name under 120 characters.").default(""),
  email: EmailField,
  phone: PhoneField,
  role: z.enum(ALL_ROLES, { error: ROLE_MESSAGE }).default(GENERAL_INTEREST),
  message: Message.default(""),
  source: SourceField.default("join").transform((s) => s || "join"),
});
export type ApplicationInput = z.output<typeof ApplicationSchema>;

/** The /join form: a full name and one of the nine roles are required. */
export const JoinSchema = ApplicationSchema.extend({
  name: z
    .string({ error: NAME_MESSAGE })
    .trim()
    .min(1, NAME_MESSAGE)
    .max(120, "Please keep the name under 120 characters."),
  role: z.enum(JOIN_ROLES, { error: ROLE_MESSAGE }),
  source: SourceField.default("join").transform((s) => s || "join"),
});

/** The home hero: an email, sent as a General Interest application. */
export const HeroSchema = z.object({ email: EmailField });
