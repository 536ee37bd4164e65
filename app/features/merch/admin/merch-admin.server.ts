import crypto from "node:crypto";
import { data, type AppLoadContext } from "react-router";
import type { z } from "zod";
import { recordActivity } from "~/features/activity/activity.server";
import { issuesOnRows, isTicked, isZodWording, listIssues, readRowFields, rowsToSave, type ListIssue } from "~/features/admin/list-editor";
import { isAdminSession, requireAdminSession } from "~/lib/admin.server";
import { getDb, type Db } from "~/lib/db.server";
import { readForm } from "~/lib/forms.server";
import { clientAddress, HttpError } from "~/lib/http.server";
import { clearPageCache } from "~/lib/page-cache.server";
import type { MerchItem } from "../merch";
import { parseEditorItem, type EditorFields } from "../merch-editor";
import { CatalogueSchema, MerchOrderStatusSchema } from "../merch.schema";
import { countShareableItems } from "../merch-share.server";
import { listItems, listMerchOrders, saveCatalogue, setMerchOrderStatus, type MerchOrderView } from "../merch.server";
import {
  EDITOR_PATH,
  FIELD_NAME,
  isBlankRow,
  itemToRow,
  MERCH_ADMIN_MESSAGES as M,
  ORDERS_PATH,
  ordersHref,
  ROW_TEXT_FIELDS,
  statusDone,
  type EditorField,
  type EditorReply,
  type EditorRow,
  type FieldIssue,
  type OrderStatusReply,
} from "./merch-admin-screen";

// ---------------------------------------------------------------- shared with the JSON API

/**
 * 'Generate Share Files': the share pages (/share/merchandise/{slug}.html) are drawn from the
 * catalogue on each request, so there is nothing to write. This reports how many items have
 * one (every item, available or not) and drops cached pages so they show the saved catalogue.
 */
export async function generateMerchShares(db: Db): Promise<{ count: number }> {
  const count = await countShareableItems(db);
  clearPageCache();
  return { count };
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

const version = (items: MerchItem[]) =>
  crypto.createHash("sha256").update(JSON.stringify(items)).digest("base64url").slice(0, 16);

/** The sign-in form, or the editor's rows as saved (and a version that changes with them). */
export async function loadMerchEditorScreen(request: Request) {
  if (!(await isAdminSession(request))) return { signedIn: false as const, returnTo: EDITOR_PATH };
  const items = await listItems(await getDb());
  return { signedIn: true as const, rows: items.map(itemToRow), version: version(items) };
}

type TypedRow = { fields: EditorFields; remove: boolean };

/** The fieldsets as posted, in form order; the last `available` value wins (hidden 'false', then the box). */
export function readEditorRows(form: FormData): TypedRow[] {
  return readRowFields(form, FIELD_NAME).map((f) => {
    const text = Object.fromEntries(ROW_TEXT_FIELDS.map((k) => [k, f.get(k) ?? ""])) as Record<(typeof ROW_TEXT_FIELDS)[number], string>;
    return { fields: { ...text, available: f.get("available") }, remove: isTicked(f, "remove") };
  });
}

/** A typed row as the editor shows it again: text kept as typed, the checkbox as it will be read. */
const echo = (r: TypedRow): EditorRow => {
  const text = Object.fromEntries(ROW_TEXT_FIELDS.map((k) => [k, r.fields[k]])) as Record<(typeof ROW_TEXT_FIELDS)[number], string>;
  return { ...text, available: parseEditorItem(r.fields).available, remove: r.remove };
};

const editorReply = (body: EditorReply, status: number) => data(body, status);

async function saveEditor(db: Db, typed: TypedRow[], actorIp: string) {
  // Every fieldset comes back in place (blank ones too), so issues and inputs keep their rows.
  const shown = typed.map(echo);
  const kept = rowsToSave(shown, isBlankRow);
  const check = checkCatalogue(kept.map(({ row }) => parseEditorItem(row)));
  if (!check.ok) {
    const issues: FieldIssue[] = issuesOnRows(check.issues, kept);
    return editorReply({ intent: "save", tone: "error", message: `${M.saveFailed}: ${check.message}`, rows: shown, issues }, 400);
  }
  try {
    await saveCatalogue(db, check.items);
  } catch (e) {
    console.error("[merch-admin] saving the catalogue failed", e);
    const message = `${M.saveFailed}: the catalogue could not be written. Nothing was changed; please try again.`;
    return editorReply({ intent: "save", tone: "error", message, rows: shown }, 500);
  }
  clearPageCache();
  const n = check.items.length;
  await recordActivity(db, {
    type: "merch.save",
    message: `Merchandise saved (${n} ${n === 1 ? "item" : "items"})`,
    meta: { count: n },
    actorIp,
  });
  return editorReply({ intent: "save", tone: "success", message: M.saved }, 200);
}

async function shareEditor(db: Db, typed: TypedRow[], actorIp: string) {
  // Unsaved edits in the same form stay on screen: the share pages use the saved catalogue.
  const rows = typed.length > 0 ? typed.map(echo) : undefined;
  try {
    const { count } = await generateMerchShares(db);
    await recordActivity(db, { type: "merch.generate_share", message: M.shareDone(count), meta: { count }, actorIp });
    return editorReply({ intent: "share", tone: "success", message: M.shareDone(count), rows }, 200);
  } catch (e) {
    console.error("[merch-admin] share generation failed", e);
    return editorReply({ intent: "share", tone: "error", message: M.shareFailed, rows }, 500);
  }
}

/** The editor's one form: intent save (Save Changes) or share (Generate Share Files). */
export async function merchEditorAction(request: Request, context: AppLoadContext | undefined) {
  await requireAdminSession(request, EDITOR_PATH);
  let form: FormData;
  try {
    form = await readForm(request, 512 * 1024);
  } catch (e) {
    if (e instanceof HttpError) return editorReply({ intent: "save", tone: "error", message: `${M.saveFailed}: ${e.message}` }, e.status);
    throw e;
  }
  const db = await getDb();
  const typed = readEditorRows(form);
  const actorIp = clientAddress(context);
  const intent = form.get("intent");
  if (intent === "save") return saveEditor(db, typed, actorIp);
  if (intent === "share") return shareEditor(db, typed, actorIp);
  return editorReply({ intent: "save", tone: "error", message: "Unknown action." }, 400);
}

// ---------------------------------------------------------------- /admin/merch-orders

/** The sign-in form, or the orders (newest first) matching ?q=. A failed read shows none. */
export async function loadMerchOrdersScreen(request: Request) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  if (!(await isAdminSession(request))) return { signedIn: false as const, returnTo: ordersHref(q) };
  let orders: MerchOrderView[] = [];
  let loadError: string | null = null;
  try {
    orders = await listMerchOrders(await getDb(), q || undefined);
  } catch (e) {
    console.error("[merch-admin] listing orders failed", e);
    loadError = M.loadFailed;
  }
  return { signedIn: true as const, q, orders, loadError, actionPath: ordersHref(q), loadedAt: Date.now() };
}

const statusReply = (body: OrderStatusReply, status: number) => data(body, status);
const failed = (reason: string | null) => (reason ? `${M.updateFailed}: ${reason}` : M.updateFailed);

/** A card's buttons: intent status, id, status and the staff note. Answers with the order. */
export async function merchOrdersAction(request: Request, context: AppLoadContext | undefined) {
  const url = new URL(request.url);
  await requireAdminSession(request, `${ORDERS_PATH}${url.search}`);
  let form: FormData;
  try {
    form = await readForm(request, 8 * 1024);
  } catch (e) {
    if (e instanceof HttpError) return statusReply({ message: failed(e.message), tone: "error", id: null, order: null }, e.status);
    throw e;
  }
  if (form.get("intent") !== "status") {
    return statusReply({ message: failed("Unknown action."), tone: "error", id: null, order: null }, 400);
  }
  const parsed = MerchOrderStatusSchema.safeParse({
    id: form.get("id") ?? "",
    status: form.get("status") ?? "",
    notes: form.get("notes") ?? undefined,
  });
  const rawId = String(form.get("id") ?? "") || null;
  if (!parsed.success) {
    return statusReply({ message: failed(parsed.error.issues[0]?.message ?? null), tone: "error", id: rawId, order: null }, 400);
  }
  const { id, status, notes } = parsed.data;
  const db = await getDb();
  let order: MerchOrderView;
  try {
    order = await setMerchOrderStatus(db, id, status, notes);
  } catch (e) {
    const known = e instanceof HttpError && e.status < 500;
    if (!known) console.error(`[merch-admin] setting ${id} to ${status} failed`, e);
    return statusReply({ message: failed(known ? e.message : null), tone: "error", id, order: null }, known ? e.status : 500);
  }
  await recordActivity(db, {
    type: "merch.order_status",
    message: `Merch order ${id} set to ${status}`,
    meta: { id, status },
    actorIp: clientAddress(context),
  });
  return statusReply({ message: statusDone(id, status), tone: "success", id, order }, 200);
}
