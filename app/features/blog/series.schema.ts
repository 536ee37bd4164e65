import { z } from "zod";
import { isImageAddress } from "~/lib/core/rules";
import { SERIES_ID_PATTERN } from "./series";

/** One series as staff (or the old blog admin) send it. */
const SeriesSchema = z.object({
  seriesId: z.string().trim(),
  title: z.string({ error: "needs a title" }).trim().min(1, "needs a title").max(160, "has a title over 160 characters"),
  image: z
    .string()
    .trim()
    .max(500, "has an image address over 500 characters")
    .refine((v) => v === "" || isImageAddress(v), "has an image that is neither a path on this site nor an https address")
    .default(""),
  summary: z.string().trim().max(600, "has a summary over 600 characters").default(""),
  createdAt: z.string().trim().max(40, "has a createdAt over 40 characters").optional(),
});

export type SeriesInput = { seriesId: string; title: string; image: string; summary: string; createdAt?: string };

/**
 * POST /api/series.php's list, checked with the old endpoint's words ('Missing items',
 * 'Series N missing seriesId/title', 'Series N has an empty or duplicate seriesId'; N counts
 * from 0, as it did), then this site's rules for each field.
 */
export function checkSeriesList(body: Record<string, unknown>): { ok: true; items: SeriesInput[] } | { ok: false; message: string } {
  const items = body.items;
  if (!Array.isArray(items)) return { ok: false, message: "Missing items" };
  if (items.length > 200) return { ok: false, message: "At most 200 series." };
  const seen = new Set<string>();
  const out: SeriesInput[] = [];
  for (const [i, raw] of items.entries()) {
    const item = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    if (item.seriesId == null || item.title == null) return { ok: false, message: `Series ${i} missing seriesId/title` };
    const id = String(item.seriesId).trim();
    if (id === "" || seen.has(id)) return { ok: false, message: `Series ${i} has an empty or duplicate seriesId` };
    seen.add(id);
    const one = checkSeries({ ...item, seriesId: id });
    if (!one.ok) return { ok: false, message: `Series ${i} ${one.problem}` };
    out.push(one.item);
  }
  return { ok: true, items: out };
}

const withoutNulls = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));

/** One series: its id's form and each field's rule; `problem` completes 'Series N …'. */
export function checkSeries(raw: Record<string, unknown>): { ok: true; item: SeriesInput } | { ok: false; problem: string } {
  const id = String(raw.seriesId ?? "").trim();
  if (id === "") return { ok: false, problem: "has an empty seriesId" };
  if (!SERIES_ID_PATTERN.test(id)) return { ok: false, problem: "has a seriesId with characters other than letters, digits, - and _ (at most 64)" };
  const parsed = SeriesSchema.safeParse({ ...withoutNulls(raw), seriesId: id, title: raw.title == null ? undefined : String(raw.title) });
  if (!parsed.success) return { ok: false, problem: parsed.error.issues[0]?.message ?? "is not valid" };
  return { ok: true, item: parsed.data };
}
