import { z } from "zod";
import { nameTooLongMessage } from "~/lib/core/rules";
import { EmailField, fullNameField, PhoneField, SourceField } from "~/lib/core/validation";

import { JOIN_CONSENT_MESSAGE } from "~/lib/core/data-notices";
import { APPLICATION_MESSAGE_MAX_LENGTH, APPLICATION_NAME_MAX_LENGTH as NAME_MAX } from "./messages";
import { ALL_ROLES, GENERAL_INTEREST, JOIN_ROLES } from "./roles";

export { ALL_ROLES, GENERAL_INTEREST, JOIN_ROLES };

export const ROLE_MESSAGE = "Please choose a role from the list.";

const Message = z.string().trim().max(APPLICATION_MESSAGE_MAX_LENGTH, "Please keep the message under 2,000 characters.");

/** What /api/send.php takes: the hero sends only an email, so the name may be empty there. */
export const ApplicationSchema = z.object({
  name: z.string().trim().max(NAME_MAX, nameTooLongMessage(NAME_MAX)).default(""),
  email: EmailField,
  phone: PhoneField,
  role: z.enum(ALL_ROLES, { error: ROLE_MESSAGE }).default(GENERAL_INTEREST),
  message: Message.default(""),
  source: SourceField.default("join").transform((s) => s || "join"),
});
export type ApplicationInput = z.output<typeof ApplicationSchema>;

/**
 * The /join form: a full name, one of the nine roles, and the explicit consent an application
 * that shows faith needs (sensitive personal data) are required.
 */
export const JoinSchema = ApplicationSchema.extend({
  name: fullNameField(NAME_MAX),
  role: z.enum(JOIN_ROLES, { error: ROLE_MESSAGE }),
  source: SourceField.default("join").transform((s) => s || "join"),
  consent: z.literal("yes", { error: JOIN_CONSENT_MESSAGE }),
});

/** The home hero: an email, sent as a General Interest application. */
export const HeroSchema = z.object({ email: EmailField });
