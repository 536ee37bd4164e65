import { z } from "zod";
import { EmailField } from "~/lib/core/validation";
import { PERSON_QUERY_MAX } from "./people";

/** POST /api/people.php: `{action, email}` or `{action, phone}`. */
export const PeopleApiSchema = z
  .object({
    action: z.enum(["export", "erase"], { error: "action must be \"export\" or \"erase\"." }),
    email: z.string().trim().max(PERSON_QUERY_MAX).optional(),
    phone: z.string().trim().max(PERSON_QUERY_MAX).optional(),
  })
  .refine((v) => !!v.email !== !!v.phone, { message: "Send either email or phone.", path: ["email"] });

/** The staff screen's forms: the search, and export or erase of what it found. */
export const PeopleFormSchema = z.object({
  intent: z.enum(["export", "erase"]),
  q: z.string().trim().min(1, "Type an email address, a phone number or a name.").max(PERSON_QUERY_MAX),
  confirm: z.string().optional(),
});

/** /privacy/my-data: the address to mail the link to, and what the person asks for. */
export const MyDataSchema = z.object({
  email: EmailField,
  kind: z.enum(["export", "erase"], { error: "Choose a copy of your data or erasure." }).default("export"),
});
