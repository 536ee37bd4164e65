import type { Db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { NotAPngError, readBakedPng } from "../badge-art/bake.server";
import { obPaths } from "../badge-art/open-badge-paths";
import { AWARD_ID } from "./open-badges";
import { findAward } from "./open-badges.server";

export const VERIFY_TEXT = {
  notBaked: "That PNG carries no badge record: it is not a badge file from us, or it was re-saved (resizing or re-uploading drops the record). Verify it by its ID instead.",
  notOurs: "The badge record in that file does not point at a badge we issued.",
} as const;

/**
 * The award a baked PNG names: its `openbadges` chunk holds our assertion's address (or an
 * assertion as JSON, whose `id` is that address). Only an address on this site, for a badge
 * we issued, counts: what the file claims beyond that is not trusted; the hosted record is.
 */
export async function awardIdOfBaked(db: Db, png: Buffer): Promise<{ id: string } | { problem: string }> {
  let text: string | null;
  try {
    text = readBakedPng(png);
  } catch (e) {
    if (e instanceof NotAPngError) return { problem: e.message };
    throw e;
  }
  if (text === null) return { problem: VERIFY_TEXT.notBaked };
  let address = text.trim();
  if (address.startsWith("{")) {
    try {
      const doc = JSON.parse(address) as { id?: unknown };
      address = typeof doc.id === "string" ? doc.id : "";
    } catch {
      return { problem: VERIFY_TEXT.notOurs };
    }
  }
  const prefix = `${env().publicUrl}${obPaths.assertion("").replace(/\.json$/, "")}`;
  const m = address.startsWith(prefix) ? /^([^/?#]+)\.json$/.exec(address.slice(prefix.length)) : null;
  const id = m?.[1] ?? "";
  if (!AWARD_ID.test(id) || !(await findAward(db, id))) return { problem: VERIFY_TEXT.notOurs };
  return { id };
}
