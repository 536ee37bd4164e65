import { z } from "zod";
import type { EventRecord } from "./event";
import { TIERS, type Tier } from "./tiers";

/** The event record's staff form, checked in the browser and again on the server. */
const realDate = (s: string) => {
  const d = new Date(`${s}T12:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
};

const DateField = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date (YYYY-MM-DD).`)
    .refine(realDate, `${label} must be a real date.`);

const GoalField = (name: string) =>
  z.coerce
    .number({ error: `${name}'s target must be a number.` })
    .int(`${name}'s target must be a whole number.`)
    .min(1, `${name}'s target must be at least 1.`)
    .max(100_000, `${name}'s target must be at most 100,000.`);

/** The staff form's fields (also its server check): every field typed, bounded and formatted. */
export const EventSchema = z
  .object({
    title: z.string({ error: "Event name is required." }).trim().min(3, "Event name must be at least 3 characters.").max(120, "Event name must be at most 120 characters."),
    date: DateField("Event date"),
    time: z
      .string()
      .trim()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Start time must be a time (HH:MM, 24-hour).")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    venue: z.string({ error: "Venue is required." }).trim().min(2, "Venue must be at least 2 characters.").max(160, "Venue must be at most 160 characters."),
    salesOpen: DateField("Sales opening date").optional().or(z.literal("").transform(() => undefined)),
    raiseTarget: z.coerce
      .number({ error: "Raise target must be a number." })
      .int("Raise target must be whole shillings.")
      .min(1, "Raise target must be at least KES 1.")
      .max(1_000_000_000, "Raise target must be at most KES 1,000,000,000."),
    ...(Object.fromEntries(TIERS.map((t) => [`goal_${t.key}`, GoalField(t.name)])) as Record<`goal_${Tier["key"]}`, ReturnType<typeof GoalField>>),
  })
  .refine((v) => !v.salesOpen || v.salesOpen <= v.date, { path: ["salesOpen"], message: "Sales must open on or before the event date." });

export type EventInput = z.output<typeof EventSchema>;

export function recordOfInput(v: EventInput): EventRecord {
  return {
    title: v.title,
    date: v.date,
    time: v.time ?? null,
    venue: v.venue,
    salesOpen: v.salesOpen ?? null,
    raiseTarget: v.raiseTarget,
    tierGoals: Object.fromEntries(TIERS.map((t) => [t.key, v[`goal_${t.key}`]])) as Record<Tier["key"], number>,
  };
}
