import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { EventForm, EVENT_PATH } from "~/features/event-badges/components/event-form";
import { EventSchema } from "~/features/event-badges/event.schema";
import { getEvent, saveEvent } from "~/features/event-badges/event.server";
import { staffOnly } from "~/features/admin/staff-auth.server";
import { handleForm } from "~/lib/submission.server";
import { staffAction, staffIntent } from "~/features/admin/staff-action.server";
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
  return staffAction(request, context, {
    name: "event",
    session: { returnTo: EVENT_PATH },
    maxBytes: 32 * 1024,
    otherwise: "save",
    intents: {
      save: staffIntent({
        run: (_, { submission, actor }) =>
          handleForm({
            submission,
            context,
            schema: EventSchema,
            limit: { name: "staff-event", rule: { points: 60, durationSeconds: 60 } },
            run: async (input) => {
              await saveEvent(context.db, input, actor);
            },
          }),
      }),
    },
    unreadable: (message) => ({ status: "error", message }),
  });
}

export default function AdminEvent({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData) return null;
  return <EventForm event={loaderData.event} reply={actionData} />;
}
