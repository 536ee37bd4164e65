import type { AppLoadContext } from "react-router";
import { clientAddress, HttpError } from "./http.server";
import { consume, tooManyMessage, type LimitRule } from "../server/rate-limit.server";

/**
 * Large bodies from people who are not signed in (badge orders with a portrait) are admitted
 * before a byte is read: what the request says it carries is counted against its address, and
 * only a few large bodies are read at once across the site. A refused request costs nothing
 * but its headers.
 */
const MB = 1024 * 1024;
/** Bytes one address may send in large bodies per 10 minutes: about 90 phone-cropped portraits. */
export const BODY_BYTES_RULE: LimitRule = { points: 100 * MB, durationSeconds: 600 };
/** A body at least this large takes one of the site-wide slots below. */
export const LARGE_BODY_BYTES = 256 * 1024;
/** Large bodies being read and handled at once, site-wide (each may hold ~25 MB of buffers). */
export const LARGE_BODIES_AT_ONCE = 8;
export const BODY_TOO_LARGE = "Request body is too large.";
export const BUSY_RECEIVING = "The site is receiving many pictures right now. Please try again in a moment.";
/** Large bodies one address may send at once: slow senders on one address cannot take every slot. */
export const LARGE_BODIES_PER_ADDRESS = 2;
export const BUSY_FROM_ADDRESS = "Your pictures are still being received. Please wait for them to finish, then try again.";

let largeInFlight = 0;
const largeByAddress = new Map<string, number>();

export type BodySlot = { release: () => void };

/**
 * Admits a body of at most `maxBytes` from a caller who is not signed in, or throws an
 * HttpError: 413 (declared too large), 429 (this address sent too much lately), 503 (busy).
 * A body without a Content-Length (chunked) is counted as `maxBytes`. Call `release` when the
 * request is answered.
 */
export async function admitPublicBody(
  request: Request,
  context: AppLoadContext | undefined,
  maxBytes: number,
): Promise<BodySlot> {
  const header = request.headers.get("content-length");
  const declared = header === null ? maxBytes : Number(header);
  if (!Number.isFinite(declared) || declared < 0 || declared > maxBytes) throw new HttpError(413, BODY_TOO_LARGE);
  if (declared < LARGE_BODY_BYTES) return { release: () => {} };
  const counted = await consume("public-body-bytes", BODY_BYTES_RULE, clientAddress(context), { points: declared });
  if (!counted.ok) {
    throw new HttpError(429, tooManyMessage(counted.retryAfterSeconds), { "Retry-After": String(counted.retryAfterSeconds) });
  }
  const address = clientAddress(context);
  const fromAddress = largeByAddress.get(address) ?? 0;
  if (fromAddress >= LARGE_BODIES_PER_ADDRESS) throw new HttpError(429, BUSY_FROM_ADDRESS, { "Retry-After": "5" });
  if (largeInFlight >= LARGE_BODIES_AT_ONCE) throw new HttpError(503, BUSY_RECEIVING, { "Retry-After": "5" });
  largeInFlight += 1;
  largeByAddress.set(address, fromAddress + 1);
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      largeInFlight -= 1;
      const left = (largeByAddress.get(address) ?? 1) - 1;
      if (left > 0) largeByAddress.set(address, left);
      else largeByAddress.delete(address);
    },
  };
}

/**
 * An upload from someone not signed in (a badge file to verify): counted once against its
 * address under `limit`, then admitted like any public body. Throws an HttpError to answer
 * with (429, 413, 503); call `release` when the request is answered.
 */
export async function admitPublicUpload(
  request: Request,
  context: AppLoadContext | undefined,
  maxBytes: number,
  limit: { name: string; rule: LimitRule },
): Promise<BodySlot> {
  const counted = await consume(limit.name, limit.rule, clientAddress(context));
  if (!counted.ok) {
    throw new HttpError(429, tooManyMessage(counted.retryAfterSeconds), { "Retry-After": String(counted.retryAfterSeconds) });
  }
  return admitPublicBody(request, context, maxBytes);
}

/** For tests: large bodies admitted and not yet released. */
export const largeBodiesInFlight = () => largeInFlight;
