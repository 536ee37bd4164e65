import { sql, type RawBuilder } from "kysely";
import { nowIso } from "./db.server";
import { formatNairobiTimeEat } from "../core/nairobi-time";

/**
 * Staff notes on an order are a log: each action that writes a note adds a dated entry below
 * what is there, and nothing is ever replaced or cut. An entry is '[12 Nov 2025, 19:42 EAT] '
 * then its text (which may run over several lines).
 */
export const noteEntry = (text: string, at: string = nowIso()) => `[${formatNairobiTimeEat(at)}] ${text.trim()}`;

/** Joins entries into a log (empty ones left out). */
export const joinEntries = (...entries: (string | null | undefined)[]) => entries.filter((e): e is string => !!e && e.trim() !== "").join("\n");

/**
 * The value of a notes column with `entry` added below what it holds, computed by the database
 * in the same UPDATE (two staff at once both keep their entry). `||` joins text on SQLite and
 * PostgreSQL alike.
 */
export function appendedTo(column: "staff_note" | "staff_notes", entry: string): RawBuilder<string> {
  const col = sql.ref(column);
  return sql<string>`case when ${col} = '' then ${entry} else ${col} || ${"\n"} || ${entry} end`;
}
