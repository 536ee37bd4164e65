import { Form } from "react-router";
import { FieldError, FormStatus } from "~/components/ui/form-parts";
import { firstError, type Reply } from "~/lib/core/forms";
import type { EventRecord } from "../event";
import { TIERS } from "../tiers";

export const EVENT_PATH = "/admin/event";

type Field = { name: string; label: string; type?: string; value: string; hint?: string; required?: boolean; max?: number };

/**
 * The event record's form (staff): what the poster, the event page, the goal bar, the reminders
 * and reconciliation read. A plain form: it works without JavaScript, and a refused value keeps
 * what was typed with the reason beside its field.
 */
export function EventForm({ event, reply }: { event: EventRecord; reply: Reply | undefined }) {
  const typed = reply?.status === "error" ? reply.values : undefined;
  const v = (name: string, fallback: string) => typed?.[name] ?? fallback;
  const fields: Field[] = [
    { name: "title", label: "Event name", value: v("title", event.title), required: true, max: 120 },
    { name: "date", label: "Date", type: "date", value: v("date", event.date), required: true },
    { name: "time", label: "Start time (Nairobi)", type: "time", value: v("time", event.time ?? ""), hint: "Leave empty while not announced." },
    { name: "venue", label: "Venue", value: v("venue", event.venue), required: true, max: 160 },
    {
      name: "salesOpen",
      label: "Sales opening date",
      type: "date",
      value: v("salesOpen", event.salesOpen ?? ""),
      hint: "Payments made before this day are flagged for a check before approval.",
    },
    { name: "raiseTarget", label: "Raise target (KES)", type: "number", value: v("raiseTarget", String(event.raiseTarget)), required: true },
  ];
  const goalField = (key: string, name: string, goal: number): Field => ({
    name: `goal_${key}`,
    label: `${name} target (supporters)`,
    type: "number",
    value: v(`goal_${key}`, String(goal)),
    required: true,
  });
  return (
    <Form method="post" action={EVENT_PATH} className="form-card event-form" noValidate>
      <FormStatus tone={reply?.status === "success" ? "success" : reply?.status === "error" ? "error" : null}>
        {reply?.status === "success" ? "Saved. The event page, the posters drawn from now on and the reminders use it." : (reply?.message ?? "Please check the fields marked below.")}
      </FormStatus>
      {[...fields, ...TIERS.map((t) => goalField(t.key, t.name, event.tierGoals[t.key]))].map((f) => {
        const error = firstError(reply, f.name);
        const describedBy = [f.hint ? `${f.name}-hint` : "", error ? `${f.name}-error` : ""].filter(Boolean).join(" ") || undefined;
        return (
          <div key={f.name} className="field">
            <label htmlFor={`event-${f.name}`}>{f.label}</label>
            {f.hint ? (
              <p className="small muted" id={`${f.name}-hint`}>
                {f.hint}
              </p>
            ) : null}
            <input
              id={`event-${f.name}`}
              name={f.name}
              type={f.type ?? "text"}
              defaultValue={f.value}
              required={f.required}
              maxLength={f.max}
              min={f.type === "number" ? 1 : undefined}
              step={f.type === "number" ? 1 : undefined}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
            />
            <FieldError id={`${f.name}-error`} message={error} />
          </div>
        );
      })}
      <button type="submit" className="button">
        Save the event
      </button>
    </Form>
  );
}
