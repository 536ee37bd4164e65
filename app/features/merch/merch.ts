/** The store's shared words and shapes (spec sections 3, 5, 8, 9); safe for the browser. */
import type { PaymentView } from "../received-payments/payment-state";
import { formatAmount } from "~/lib/core/plain-format";

export type MerchColor = { label: string; swatch: string; image?: string };

export type MerchItem = {
  id: string;
  name: string;
  slug: string;
  description: string;
  price: number;
  currency: string;
  impact: string;
  image: string;
  tags: string[];
  available: boolean;
  colors: MerchColor[];
  sizes: string[];
};

/** A bag line as shown: priced from the catalogue on the server, never from the client. */
export type BagLine = {
  key: string;
  itemId: string;
  slug: string;
  name: string;
  price: number;
  quantity: number;
  color: MerchColor | null;
  size: string | null;
  image: string;
  currency: string;
  available: boolean;
};

export type BagView = { lines: BagLine[]; count: number; total: number; currency: string };

export const DEFAULT_CURRENCY = "KES";
export const MAX_LINE_QUANTITY = 50;

export const MERCH_MESSAGES = {
  selectColour: "Select a colour to continue.",
  selectSize: "Select a size to continue.",
  quantityMin: "Quantity must be at least 1.",
  quantityMax: `Quantity must be at most ${MAX_LINE_QUANTITY}.`,
  unknownItem: "That item is not in the store any more.",
  restocking: "This item is restocking and cannot be ordered right now.",
  codeRequired: "Enter your M-Pesa confirmation code.",
  emptyCatalogue: "No merch listed yet. Check back soon.",
  emptyBag: "Your bag is empty.",
  orderFailed: "Order could not be submitted.",
  orderFailedRetry: "Order could not be submitted. Please try again.",
  shareCopied: "Merch share link copied",
  orderSuccess: (id: string) =>
    `Thank you! Order ${id} is pending review — we'll email you once the merch team confirms payment.`,
  orderSuccessNoId: "Thank you! Our merch team will reach out to confirm delivery and payment.",
} as const;

export const ORDER_STATUS_LABELS = { pending: "Pending review", approved: "Approved", rejected: "Rejected" } as const;
export type MerchOrderStatus = keyof typeof ORDER_STATUS_LABELS;

/** The line key of spec section 3: item id, colour label or '-', size or '-', joined. */
export const lineKey = (itemId: string, color: string | null | undefined, size: string | null | undefined) =>
  [itemId, color || "-", size || "-"].join("|");

export const formatMoney = (amount: number, currency = DEFAULT_CURRENCY) => formatAmount(amount, currency);

/** Used when the catalogue cannot be loaded (spec section 3). */
export const FALLBACK_CATALOGUE: MerchItem[] = [
  {
    id: "SL-HOODIE",
    name: "Street Light Hoodie",
    slug: "street-light-hoodie",
    description: "A heavyweight hoodie for cold vespers nights, printed with the lamp mark.",
    price: 3500,
    currency: "KES",
    impact: "Every hoodie funds warm meals for a street vespers evening.",
    image: "/images/merch/hoodie.webp",
    tags: ["apparel"],
    available: true,
    colors: [
      { label: "Night Blue", swatch: "#123b5d" },
      { label: "Lamp Amber", swatch: "#e0892b" },
      { label: "Charcoal", swatch: "#333a40" },
    ],
    sizes: ["S", "M", "L", "XL", "2XL"],
  },
  {
    id: "SL-TOTE",
    name: "Street Light Tote",
    slug: "street-light-tote",
    description: "A sturdy canvas tote for books, groceries and outreach packs.",
    price: 1200,
    currency: "KES",
    impact: "Every tote puts a hygiene pack into someone's hands.",
    image: "/images/merch/tote.webp",
    tags: ["accessories"],
    available: true,
    colors: [],
    sizes: ["One size"],
  },
];

/** A priced order line: the catalogue's price at the time of the order, never the client's. */
export type PricedLine = {
  itemId: string;
  name: string;
  price: number;
  quantity: number;
  color: MerchColor | null;
  size: string | null;
};

/** An order as staff and the emails read it. */
export type MerchOrderView = {
  id: string;
  ts: string;
  status: MerchOrderStatus;
  reviewedAt: string | null;
  staffNotes: string;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  notes: string;
  paymentReference: string;
  total: number;
  currency: string;
  items: PricedLine[];
  /** Where the payment stands in M-Pesa's records (reconciliation adds it for staff lists and the order page). */
  payment?: PaymentView;
};
