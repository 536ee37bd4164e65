import type { PaymentState } from "../../received-payments/payment-state";
import { formatColours } from "../merch-editor";
import type { MerchItem, MerchOrderStatus } from "../merch";
import type { MerchOrderView } from "../merch";

/** Client-safe pieces of the two store staff screens: addresses, words, form shapes. */

export const EDITOR_PATH = "/merchandise/admin";
export const ORDERS_PATH = "/admin/merch-orders";

/** Spec section 8, 'Merch admin'. */
export const MERCH_ADMIN_MESSAGES = {
  saved: "Merchandise saved successfully.",
  saveFailed: "Save failed",
  shareDone: (n: number) => `Share pages generated (${n})`,
  shareFailed: "Share generation failed",
  loadFailed: "Could not load orders",
  updateFailed: "Could not update order",
} as const;

/** The text fields of one editor fieldset, as typed; `available` and `remove` are the checkboxes. */
export const ROW_TEXT_FIELDS = [
  "id",
  "name",
  "slug",
  "description",
  "price",
  "currency",
  "impact",
  "image",
  "tags",
  "colors",
  "sizes",
] as const;
export type RowTextField = (typeof ROW_TEXT_FIELDS)[number];
export type EditorRow = Record<RowTextField, string> & { available: boolean; remove: boolean };
export type EditorField = RowTextField | "available";

/** Form field names: items[0].id, items[0].available, ... */
export const fieldName = (row: number, field: EditorField | "remove") => `items[${row}].${field}`;
export const FIELD_NAME = /^items\[(\d{1,4})\]\.([a-z]+)$/;

export const BLANK_ROW: EditorRow = {
  id: "",
  name: "",
  slug: "",
  description: "",
  price: "",
  currency: "",
  impact: "",
  image: "",
  tags: "",
  colors: "",
  sizes: "",
  available: true,
  remove: false,
};

/** A new row left empty is not an item: it is dropped (currency alone does not count). */
export const isBlankRow = (r: EditorRow) =>
  ROW_TEXT_FIELDS.every((f) => f === "currency" || r[f].trim() === "");

export function itemToRow(item: MerchItem): EditorRow {
  return {
    id: item.id,
    name: item.name,
    slug: item.slug,
    description: item.description,
    price: String(item.price),
    currency: item.currency,
    impact: item.impact,
    image: item.image,
    tags: item.tags.join(", "),
    colors: formatColours(item.colors),
    sizes: item.sizes.join(", "),
    available: item.available,
    remove: false,
  };
}

export type FieldIssue = { row: number; field: EditorField | null; message: string };

/** What the editor's reply carries (intent save or share): what was typed, whenever it was not saved, and the problems on their rows. */
export type EditorResult = {
  rows?: EditorRow[];
  issues?: FieldIssue[];
};

// ---------------------------------------------------------------- orders screen

/** What a card's status reply carries: the order as it now stands (with JavaScript it replaces its card). */
export type OrderStatusResult = {
  id: string | null;
  order: MerchOrderView | null;
  /** Set when the change needs a second, confirming press (a rejection, un-approving) before it runs. */
  confirm?: "rejected" | "pending";
};

export const rejectQuestion = (o: Pick<MerchOrderView, "id" | "customerName" | "status">) =>
  o.status === "approved"
    ? `Reject order ${o.id}? It was approved and ${o.customerName} was told so; they will be emailed that it is cancelled.`
    : `Reject order ${o.id}? ${o.customerName} will be emailed that it was not accepted.`;

/** 'Mark pending' on a decided order asks first: it undoes an approval (or a rejection) the customer was emailed about. */
export const pendingQuestion = (o: Pick<MerchOrderView, "id" | "customerName" | "status">) =>
  o.status === "approved"
    ? `Mark order ${o.id} pending again? It was approved and ${o.customerName} was emailed that it is confirmed. They are not emailed about this, and approving it again sends no second confirmation.`
    : `Mark order ${o.id} pending again? It was rejected and ${o.customerName} was emailed that. They are not emailed about this.`;

/** The buttons a card shows: 'Mark pending' only where there is a decision to undo. */
export const statusButtonsFor = (status: MerchOrderStatus) => STATUS_BUTTONS.filter((b) => b.status !== "pending" || status !== "pending");

export const STATUS_BUTTONS: ReadonlyArray<{ status: MerchOrderStatus; label: string }> = [
  { status: "pending", label: "Mark pending" },
  { status: "approved", label: "Approve" },
  { status: "rejected", label: "Reject" },
];

/** What staff read after a change; approving again says that no second 'confirmed' email went out. */
export const statusDone = (id: string, status: MerchOrderStatus, confirmedBefore: string | null = null) =>
  status === "approved"
    ? confirmedBefore
      ? `Order ${id} approved. Its 'confirmed' email was sent on ${confirmedBefore}, so it was not sent again.`
      : `Order ${id} approved.`
    : status === "rejected"
      ? `Order ${id} rejected.`
      : `Order ${id} marked pending review.`;

export const ordersHref = (q: string, payment: PaymentState | "" = "") => {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (payment) params.set("payment", payment);
  const query = params.toString();
  return query ? `${ORDERS_PATH}?${query}` : ORDERS_PATH;
};
