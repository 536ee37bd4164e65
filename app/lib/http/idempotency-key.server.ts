import crypto from "node:crypto";
import { HttpError } from "../core/http-error";

export const IDEMPOTENCY_KEY_INVALID = "The Idempotency-Key header must be 1 to 100 printable ASCII characters.";

const PRINTABLE = /^[\x20-\x7e]{1,100}$/;

/** The same value however its object keys were ordered. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * A JSON call's `Idempotency-Key` header with a hash of the body it came with, or undefined
 * when none was sent. A key that is empty, too long or not printable ASCII is a 400. The key is
 * the caller's own (`caller`: its address): the same key from another caller is another key,
 * and says nothing about the first caller's order.
 */
export function idempotencyOf(request: Request, body: Record<string, unknown>, caller: string): { key: string; bodyHash: string } | undefined {
  const key = request.headers.get("idempotency-key");
  if (key === null) return undefined;
  if (!PRINTABLE.test(key)) throw new HttpError(400, IDEMPOTENCY_KEY_INVALID);
  const scope = crypto.createHash("sha256").update(`idempotency-caller:${caller}`).digest("hex").slice(0, 16);
  return { key: `${scope}:${key}`, bodyHash: crypto.createHash("sha256").update(canonicalJson(body)).digest("hex") };
}

/** Checked before the body is read: a bad key costs nothing. */
export function checkIdempotencyKey(request: Request) {
  const key = request.headers.get("idempotency-key");
  if (key !== null && !PRINTABLE.test(key)) throw new HttpError(400, IDEMPOTENCY_KEY_INVALID);
}
