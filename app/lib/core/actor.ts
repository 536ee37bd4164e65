/**
 * Who did something, for the activity log: a staff member (by the address they came from, as
 * one shared key names no person), or the site itself (an automatic step, with its reason).
 * Domain functions that staff call take an Actor and write their own log entry.
 */
export type Actor = { kind: "staff"; ip: string } | { kind: "system"; reason: string };

export const staff = (ip: string): Actor => ({ kind: "staff", ip });
export const system = (reason: string): Actor => ({ kind: "system", reason });

/** What the log's actor column holds: the staff address, or "system". */
export const actorLabel = (actor: Actor) => (actor.kind === "staff" ? actor.ip : "system");
