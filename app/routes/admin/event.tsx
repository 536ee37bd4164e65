import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { EventForm, EVENT_PATH } from "~/features/event-badges/components/event-form";
import { EventSchema } from "~/features/event-badges/event.schema";
import { getEvent, saveEvent } from "~/features/event-badges/event.server";
import { staff } from "~/lib/actor";
import { requireAdminSession, staffOnly } from "~/lib/admin.server";
import { clientAddress } from "~/lib/http.server";
import { handleForm } from "~/lib/submission.server";
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

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdminSession(context.db, request, EVENT_PATH);
  return handleForm({
    request,
    context,
    schema: EventSchema,
    limit: { name: "staff-event", rule: { points: 60, durationSeconds: 60 } },
    run: async (input) => {
      await saveEvent(context.db, input, staff(clientAddress(context)));
    },
  });
}

export default function AdminEvent({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData) return null;
  return <EventForm event={loaderData.event} reply={actionData} />;
}
