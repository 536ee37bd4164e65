import { JsonShapeError, parseBoundedJson } from "~/lib/core/bounded-json";
import type { Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { NotAPngError, readBakedPng } from "../badge-art/bake.server";
import { obPaths } from "../badge-art/open-badge-paths";
import { EmptyUploadError, readBakedUpload, UploadTooLargeError } from "./baked-upload.server";
import { AWARD_ID } from "./open-badges";
import { findAward } from "./open-badges.server";

export const VERIFY_TEXT = {
  notBaked: "That PNG carries no badge record: it is not a badge file from us, or it was re-saved (resizing or re-uploading drops the record). Verify it by its ID instead.",
  notOurs: "The badge record in that file does not point at a badge we issued.",
  notARecord: "The badge record in that file is not one we could have made.",
} as const;

/**
 * The longest record a badge of ours carries: its assertion's address, or an assertion as
 * JSON, is well under 2 kB. Anything longer is refused before it is decoded or parsed.
 */
export const BAKED_RECORD_MAX_BYTES = 64 * 1024;

/**
 * The award a baked PNG names: its `openbadges` chunk holds our assertion's address (or an
 * assertion as JSON, whose `id` is that address). Only an address on this site, for a badge
 * we issued, counts: what the file claims beyond that is not trusted; the hosted record is.
 */
export async function awardIdOfBaked(db: Db, png: Buffer): Promise<{ id: string } | { problem: string }> {
  let text: string | null;
  try {
    text = readBakedPng(png, { maxTextBytes: BAKED_RECORD_MAX_BYTES, tooLarge: VERIFY_TEXT.notARecord });
  } catch (e) {
    if (e instanceof NotAPngError) return { problem: e.message };
    throw e;
  }
  return awardIdOfRecord(db, text);
}

/**
 * `awardIdOfBaked` for an upload as it arrives (see baked-upload.server.ts): the file is never
 * held whole, and a record too large to be ours stops the reading at once. `empty` when no byte
 * came, `tooLarge` when more than `maxBytes` did.
 */
export async function awardIdOfUpload(
  db: Db,
  pieces: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<{ id: string } | { problem: string } | { empty: true } | { tooLarge: true }> {
  let text: string | null;
  try {
    text = await readBakedUpload(pieces, { maxBytes, maxTextBytes: BAKED_RECORD_MAX_BYTES, tooLarge: VERIFY_TEXT.notARecord });
  } catch (e) {
    if (e instanceof NotAPngError) return { problem: e.message };
    if (e instanceof EmptyUploadError) return { empty: true };
    if (e instanceof UploadTooLargeError) return { tooLarge: true };
    throw e;
  }
  return awardIdOfRecord(db, text);
}

/** The award a badge record (an address, or an assertion as JSON) names, if it is ours. */
async function awardIdOfRecord(db: Db, text: string | null): Promise<{ id: string } | { problem: string }> {
  if (text === null) return { problem: VERIFY_TEXT.notBaked };
  let address = text.trim();
  if (address.startsWith("{")) {
    try {
      const doc = (await parseBoundedJson(address, { maxDepth: 8, maxValues: 2_000 })) as { id?: unknown } | null;
      address = typeof doc?.id === "string" ? doc.id : "";
    } catch (e) {
      return { problem: e instanceof JsonShapeError ? VERIFY_TEXT.notARecord : VERIFY_TEXT.notOurs };
    }
  }
  const prefix = `${env().publicUrl}${obPaths.assertion("").replace(/\.json$/, "")}`;
  const m = address.startsWith(prefix) ? /^([^/?#]+)\.json$/.exec(address.slice(prefix.length)) : null;
  const id = m?.[1] ?? "";
  if (!AWARD_ID.test(id) || !(await findAward(db, id))) return { problem: VERIFY_TEXT.notOurs };
  return { id };
}
