import crypto from "node:crypto";
import type { z } from "zod";
import type { Actor } from "~/lib/core/actor";
import { getMerchOrder } from "../merch.server";
import { type Db } from "~/lib/db/db.server";
import { logAction } from "~/features/activity/activity.server";
import { isZodWording, listIssues, type ListIssue } from "~/features/admin/list-editor";
import { clearPageCache } from "~/lib/http/page-cache.server";
import type { MerchItem, MerchOrderStatus } from "../merch";
import { CatalogueSchema } from "../merch.schema";
import { countShareableItems } from "../merch-share.server";
import type { MerchOrderView } from "../merch";
import { saveCatalogue, setMerchOrderStatus } from "../merch.server";
import { type EditorField } from "./merch-admin-screen";

// ---------------------------------------------------------------- shared with the JSON API

/**
 * 'Generate Share Files': the share pages (/share/merchandise/{slug}.html) are drawn from the
 * catalogue on each request, so there is nothing to write. This reports how many items have
 * one (every item, available or not) and drops cached pages so they show the saved catalogue.
 */
export async function generateMerchShares(db: Db, actor: Actor): Promise<{ count: number }> {
  const count = await countShareableItems(db);
  clearPageCache();
  await logAction(db, actor, { type: "merch.generate_share", message: `Merch share pages ready for ${count} ${count === 1 ? "item" : "items"}`, meta: { count } });
  return { count };
}

/** Staff replace the whole catalogue (already checked); cached pages are dropped. */
export async function saveMerchCatalogue(db: Db, items: MerchItem[], actor: Actor): Promise<MerchItem[]> {
  const saved = await saveCatalogue(db, items);
  clearPageCache();
  const n = saved.length;
  await logAction(db, actor, { type: "merch.save", message: `Merchandise saved (${n} ${n === 1 ? "item" : "items"})`, meta: { count: n } });
  return saved;
}

/** Staff set an order's status (and note); approval emails the customer once. */
export async function changeMerchOrderStatus(
  db: Db,
  change: {
    id: string;
    status: MerchOrderStatus;
    notes?: string;
    onlyFrom?: MerchOrderStatus;
    beforeApprove?: (db: Db, order: MerchOrderView) => Promise<void>;
  },
  actor: Actor,
): Promise<MerchOrderView> {
  const { id, status } = change;
  await setMerchOrderStatus(db, id, status, change.notes, { onlyFrom: change.onlyFrom, beforeApprove: change.beforeApprove });
  await logAction(db, actor, { type: "merch.order_status", message: `Merch order ${id} set to ${status}`, meta: { id, status } });
  return (await getMerchOrder(db, id))!;
}

/**
 * When an approved order's 'confirmed' email went out, if that was before its latest approval
 * (approved again after 'Mark pending' or a rejection: no second email was sent); else null.
 */
export async function confirmedBefore(db: Db, id: string): Promise<string | null> {
  const row = await db.selectFrom("merch_orders").select(["status", "reviewed_at", "confirmation_sent_at"]).where("id", "=", id).executeTakeFirst();
  if (!row || row.status !== "approved" || !row.confirmation_sent_at || row.confirmation_sent_at === row.reviewed_at) return null;
  return row.confirmation_sent_at;
}

export type CatalogueCheck =
  | { ok: true; items: MerchItem[] }
  | { ok: false; message: string; issues: ListIssue<EditorField>[] };

const FIELD_LABEL: Record<string, string> = {
  id: "id (SKU)",
  name: "name",
  slug: "slug",
  description: "description",
  price: "price",
  currency: "currency",
  impact: "impact",
  image: "image",
  tags: "tags",
  available: "available",
  colors: "colours",
  sizes: "sizes",
};
const SINGULAR: Record<string, string> = { tags: "tag", colors: "colour", sizes: "size" };

/** Zod's own words ("Too big: expected ...") only where the schema has none of its own. */
function issueWords(issue: z.core.$ZodIssue, field: string | null): string {
  if (!isZodWording(issue.message)) return issue.message;
  const label = field ? (FIELD_LABEL[field] ?? field) : "item";
  const inList = issue.path.length > 2;
  if (issue.code === "too_big") {
    if (issue.origin === "array") return `At most ${String(issue.maximum)} ${label}.`;
    if (inList && field) return `Each ${SINGULAR[field] ?? "entry"} must be at most ${String(issue.maximum)} characters.`;
    return `The ${label} must be at most ${String(issue.maximum)} characters.`;
  }
  if (issue.code === "too_small") return inList && field ? `Every ${SINGULAR[field] ?? "entry"} needs some text.` : `The ${label} is required.`;
  return `The ${label} is not valid.`;
}

/**
 * Validates a whole catalogue (formats, unique ids and slugs) with the one message the
 * editor shows: the first problem, naming the item unless the message already does.
 */
export function checkCatalogue(items: MerchItem[]): CatalogueCheck {
  const parsed = CatalogueSchema.safeParse(items);
  if (parsed.success) return { ok: true, items: parsed.data };
  const issues = listIssues(parsed.error.issues, (key) => (key in FIELD_LABEL ? (key as EditorField) : null), issueWords);
  const first = issues[0]!;
  const item = items[first.index];
  // Duplicates name their value already: 'Two items share the slug "x".'
  const named = first.code === "custom" && (first.field === "id" || first.field === "slug") && first.message.startsWith("Two items");
  const where = item ? `${item.id || item.name || "New item"} (item ${first.index + 1})` : "";
  const message = named || !where ? first.message : `${where}: ${first.message}`;
  return { ok: false, message, issues: issues.map(({ index, field, message }) => ({ index, field, message })) };
}

// ---------------------------------------------------------------- /merchandise/admin

export const version = (items: MerchItem[]) =>
  crypto.createHash("sha256").update(JSON.stringify(items)).digest("base64url").slice(0, 16);

/** The editor's rows as saved (and a version that changes with them), for signed-in staff. */
