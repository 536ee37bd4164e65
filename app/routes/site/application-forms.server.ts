import { redirect, type AppLoadContext } from "react-router";
import { handleForm } from "~/lib/submission.server";
import { limits } from "~/lib/rate-limit.server";
import { GENERAL_INTEREST, HeroSchema, JoinSchema } from "~/features/applications/applications.schema";
import { submitApplication } from "~/features/applications/applications.server";

/** The home hero: an email alone, sent as a General Interest application. */
export function heroAction(request: Request, context: AppLoadContext) {
  return handleForm({
    request,
    context,
    schema: HeroSchema,
    limit: { name: "application", rule: limits.application },
    run: async ({ email }) => {
      await submitApplication(context.db, {
        name: "",
        email,
        phone: "",
        role: GENERAL_INTEREST,
        message: "",
        source: "home:hero",
      });
    },
  });
}

/** The /join form; success goes on to /join/thanks. */
export async function joinAction(request: Request, context: AppLoadContext) {
  const reply = await handleForm({
    request,
    context,
    schema: JoinSchema,
    limit: { name: "application", rule: limits.application },
    run: async (input) => {
      await submitApplication(context.db, input);
    },
  });
  if (reply.data.status === "success") throw redirect("/join/thanks");
  return reply;
}
