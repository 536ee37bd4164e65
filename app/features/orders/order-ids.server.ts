import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "~/lib/db/db.server";
import { HttpError } from "~/lib/http/http.server";

const ID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** An order reference people can read out: the prefix and six letters and digits, e.g. BO-7KQ2MX. */
export function newOrderId(prefix: string): string {
  const bytes = crypto.randomBytes(6);
  return `${prefix}-${Array.from(bytes, (b) => ID_ALPHABET[b % 32]).join("")}`;
}

export const ORDER_ID_TRIES = 20;
export const ORDER_ID_UNAVAILABLE = "Could not create an order reference. Please try again.";

/**
 * A new reference not yet used in `table` (a database or a transaction). Six characters give
 * about a billion references, so a clash is rare; after 20 in a row something is wrong and the
 * order is refused with 503 rather than tried for ever.
 */
export async function unusedOrderId(
  db: Kysely<DB>,
  table: "badge_orders" | "merch_orders",
  prefix: string,
  make: (prefix: string) => string = newOrderId,
): Promise<string> {
  for (let attempt = 0; attempt < ORDER_ID_TRIES; attempt++) {
    const id = make(prefix);
    const taken = await db.selectFrom(table).select("id").where("id", "=", id).executeTakeFirst();
    if (!taken) return id;
  }
  throw new HttpError(503, ORDER_ID_UNAVAILABLE);
}
