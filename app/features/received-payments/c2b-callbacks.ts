import type { SetAsideEntry } from "./daraja";

/**
 * Client-safe pieces of the Daraja C2B callbacks. Safaricom refuses to register a callback URL
 * containing 'mpesa' (and a few other words), so the callbacks are served under /api/pay; the
 * older /api/mpesa/c2b paths answer the same.
 */
export const C2B_CALLBACK_PATH = "/api/pay/c2b";

/** What /admin/payments shows staff to register with Safaricom. */
export type CallbackRegistration = {
  /** The site's numbers (MPESA_SHORTCODE). */
  shortcodes: string[];
  /** Unset MPESA_CALLBACK_SECRET: none, the callbacks answer 404. */
  urls: { confirmation: string; validation: string } | null;
  /** Sentences naming what would make Safaricom refuse or fail to reach the URLs. */
  warnings: string[];
};

/** A confirmation kept aside: for another number, or its TransID, amount or time unreadable. */
export type SetAsideRow = SetAsideEntry & {
  /** The body as it came. */
  body: string;
  receivedAt: string;
};

export const SET_ASIDE_LABEL: Record<SetAsideRow["reason"], string> = {
  other_number: "Other number",
  unreadable: "Could not be read",
};
