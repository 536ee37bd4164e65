import type { DB } from "~/database";
import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { httpErrorOf } from "~/lib/http/http.server";

/** Runs `work`, expecting the feature's DomainError; returns the status it maps to and its message. */
export async function domainRefusal(work: () => unknown): Promise<{ status: number; message: string }> {
  try {
    await work();
  } catch (e) {
    if (e instanceof DomainError) return { status: httpErrorOf(e)!.status, message: e.message };
    throw e;
  }
  throw new Error("expected a DomainError, but the call succeeded");
}

/** How many rows `table` holds. */
export async function rowCount(db: Db, table: keyof DB): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number((row as { n: unknown }).n);
}
