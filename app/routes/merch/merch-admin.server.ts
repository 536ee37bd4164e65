import { PAYMENT_STATES, type PaymentState } from "~/features/received-payments/payment-state";
import { data, type AppLoadContext } from "react-router";
import type { Reply } from "~/lib/forms";
import { issuesOnRows, isTicked, readRowFields, rowsToSave } from "~/features/admin/list-editor";
import { staff, type Actor } from "~/lib/actor";
import { requireAdminSession } from "~/lib/admin.server";
import { type Db } from "~/lib/db.server";
import { readForm } from "~/lib/submission.server";
import { clientAddress, httpErrorOf } from "~/lib/http.server";
import { parseEditorItem, type EditorFields } from "~/features/merch/merch-editor";
import { MerchOrderStatusSchema } from "~/features/merch/merch.schema";
import { listItems } from "~/features/merch/merch.server";
import { changeMerchOrderStatus, getMerchOrder, listMerchOrders } from "~/features/reconciliation/orders.server";
import type { MerchOrderView } from "~/features/merch/merch";
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
  type EditorResult,
  type EditorRow,
  type FieldIssue,
  type OrderStatusResult,
  rejectQuestion,
} from "~/features/merch/admin/merch-admin-screen";
import { checkCatalogue, generateMerchShares, saveMerchCatalogue, version } from "~/features/merch/admin/merch-admin.server";

export async function loadMerchEditorScreen(context: AppLoadContext) {
  const items = await listItems(context.db);
  return { rows: items.map(itemToRow), version: version(items) };
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

const editorReply = (body: Reply<EditorResult>, status: number) => data(body, status);

async function saveEditor(db: Db, typed: TypedRow[], actor: Actor) {
  // Every fieldset comes back in place (blank ones too), so issues and inputs keep their rows.
  const shown = typed.map(echo);
  const kept = rowsToSave(shown, isBlankRow);
  const check = checkCatalogue(kept.map(({ row }) => parseEditorItem(row)));
  if (!check.ok) {
    const issues: FieldIssue[] = issuesOnRows(check.issues, kept);
    return editorReply({ intent: "save", status: "error", message: `${M.saveFailed}: ${check.message}`, result: { rows: shown, issues } }, 400);
  }
  try {
    await saveMerchCatalogue(db, check.items, actor);
  } catch (e) {
    console.error("[merch-admin] saving the catalogue failed", e);
    const message = `${M.saveFailed}: the catalogue could not be written. Nothing was changed; please try again.`;
    return editorReply({ intent: "save", status: "error", message, result: { rows: shown } }, 500);
  }
  return editorReply({ intent: "save", status: "success", message: M.saved }, 200);
}

async function shareEditor(db: Db, typed: TypedRow[], actor: Actor) {
  // Unsaved edits in the same form stay on screen: the share pages use the saved catalogue.
  const rows = typed.length > 0 ? typed.map(echo) : undefined;
  try {
    const { count } = await generateMerchShares(db, actor);
    return editorReply({ intent: "share", status: "success", message: M.shareDone(count), result: { rows } }, 200);
  } catch (e) {
    console.error("[merch-admin] share generation failed", e);
    return editorReply({ intent: "share", status: "error", message: M.shareFailed, result: { rows } }, 500);
  }
}

/** The editor's one form: intent save (Save Changes) or share (Generate Share Files). */
export async function merchEditorAction(request: Request, context: AppLoadContext) {
  await requireAdminSession(request, EDITOR_PATH);
  let form: FormData;
  try {
    form = await readForm(request, 512 * 1024);
  } catch (e) {
    const http = httpErrorOf(e);
    if (http) return editorReply({ intent: "save", status: "error", message: `${M.saveFailed}: ${http.message}` }, http.status);
    throw e;
  }
  const db = context.db;
  const typed = readEditorRows(form);
  const actor = staff(clientAddress(context));
  const intent = form.get("intent");
  if (intent === "save") return saveEditor(db, typed, actor);
  if (intent === "share") return shareEditor(db, typed, actor);
  return editorReply({ intent: "save", status: "error", message: "Unknown action." }, 400);
}

// ---------------------------------------------------------------- /admin/merch-orders

/** The orders (newest first) matching ?q=, for signed-in staff. A failed read shows none. */
export async function loadMerchOrdersScreen(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const rawPayment = url.searchParams.get("payment") ?? "";
  const payment: PaymentState | "" = (PAYMENT_STATES as readonly string[]).includes(rawPayment) ? (rawPayment as PaymentState) : "";
  let orders: MerchOrderView[] = [];
  let loadError: string | null = null;
  try {
    orders = await listMerchOrders(context.db, q || undefined, { payment: payment || undefined, verifiedFirst: true });
  } catch (e) {
    console.error("[merch-admin] listing orders failed", e);
    loadError = M.loadFailed;
  }
  return { q, payment, orders, loadError, actionPath: ordersHref(q, payment), loadedAt: Date.now() };
}

const statusReply = (body: Reply<OrderStatusResult>, status: number) => data(body, status);
const failed = (reason: string | null) => (reason ? `${M.updateFailed}: ${reason}` : M.updateFailed);

/** A card's buttons: intent status, id, status and the staff note. Answers with the order. */
export async function merchOrdersAction(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  await requireAdminSession(request, `${ORDERS_PATH}${url.search}`);
  let form: FormData;
  try {
    form = await readForm(request, 8 * 1024);
  } catch (e) {
    const http = httpErrorOf(e);
    if (http) return statusReply({ message: failed(http.message), status: "error", result: { id: null, order: null } }, http.status);
    throw e;
  }
  if (form.get("intent") !== "status") {
    return statusReply({ message: failed("Unknown action."), status: "error", result: { id: null, order: null } }, 400);
  }
  const parsed = MerchOrderStatusSchema.safeParse({
    id: form.get("id") ?? "",
    status: form.get("status") ?? "",
    notes: form.get("notes") ?? undefined,
  });
  const rawId = String(form.get("id") ?? "") || null;
  if (!parsed.success) {
    return statusReply({ message: failed(parsed.error.issues[0]?.message ?? null), status: "error", result: { id: rawId, order: null } }, 400);
  }
  const { id, status, notes } = parsed.data;
  const db = context.db;
  // A rejection emails the customer and can undo an approval: it takes a second, confirming press.
  if (status === "rejected" && form.get("confirmed") !== "yes") {
    const current = await getMerchOrder(db, id).catch(() => null);
    if (current && current.status !== "rejected") {
      // What was typed in the note box comes back with the question (a reload would lose it).
      return statusReply(
        { message: rejectQuestion(current), status: "success", values: { notes: notes ?? "" }, result: { id, order: current, confirm: "rejected" } },
        200,
      );
    }
  }
  let order: MerchOrderView;
  try {
    order = await changeMerchOrderStatus(
      db,
      { id, status, notes, paymentChecked: form.get("paymentChecked") === "yes" },
      staff(clientAddress(context)),
    );
  } catch (e) {
    const http = httpErrorOf(e);
    const known = http && http.status < 500 ? http : null;
    if (!known) console.error(`[merch-admin] setting ${id} to ${status} failed`, e);
    return statusReply({ message: failed(known ? known.message : null), status: "error", result: { id, order: null } }, known ? known.status : 500);
  }
  return statusReply({ message: statusDone(id, status), status: "success", result: { id, order } }, 200);
}
