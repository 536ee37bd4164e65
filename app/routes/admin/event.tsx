import { data } from "react-router";
import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { EventForm, EVENT_PATH } from "~/features/event-badges/components/event-form";
import { EventSchema } from "~/features/event-badges/event.schema";
import { getEvent, saveEvent } from "~/features/event-badges/event.server";
import { requireStaff, staffOnly } from "~/features/admin/staff-auth.server";
import type { Reply } from "~/lib/core/forms";
import { invalidReply, NOT_SAVED, parseSubmission, readForm, replyFromError, requireWithinLimit, submissionOf, trippedHoneypot, typedValues } from "~/lib/forms/submission.server";
import type { Submission } from "~/lib/core/forms";
import type { Route } from "./+types/event";

export const handle: StaffHandle = {
  page: "admin.event",
  title: "Event settings",
  description: "The evening's name, date, time, venue, sales opening date, raise target and tier targets.",
};

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

export async function loader({ request, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, async () => ({ event: await getEvent(context.db) }));
}

/** The event form (it sends no intent): read as the public forms are, field errors and all. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff(request, context, EVENT_PATH);
  let submission: Submission;
  try {
    submission = submissionOf(await readForm(request, 32 * 1024));
  } catch (e) {
    return replyFromError(e);
  }
  if (trippedHoneypot(submission)) return data<Reply<never>>({ status: "success" }, 200);
  const values = typedValues(submission);
  const parsed = parseSubmission(submission, EventSchema);
  if (!parsed.ok) return invalidReply(parsed, { values });
  try {
    await requireWithinLimit(context, "staff-event", { points: 60, durationSeconds: 60 });
    await saveEvent(context.db, parsed.value, actor);
  } catch (e) {
    return replyFromError(e, { values }, { unexpected: NOT_SAVED });
  }
  return data<Reply<never>>({ status: "success" }, 200);
}

export default function AdminEvent({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData) return null;
  return <EventForm event={loaderData.event} reply={actionData} />;
}
