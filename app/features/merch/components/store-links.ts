import type { Reply } from "~/lib/core/forms";
import { MERCH_MESSAGES } from "../merch";

/**
 * Sent by the enhanced forms only. Without it the action answers a plain form the
 * Post/Redirect/Get way; with it, fetchers get data and the page moves itself.
 */
export const ENHANCED_FIELD = "_js";

export const STORE_PATH = "/merchandise";
export const BAG_HREF = `${STORE_PATH}?bag=1`;
export const CHECKOUT_HREF = `${STORE_PATH}?checkout=1`;
export const itemHref = (slug: string) => `${STORE_PATH}?item=${encodeURIComponent(slug)}`;
export const shareUrlFor = (origin: string, slug: string) => `${origin}/share/merchandise/${encodeURIComponent(slug)}.html`;

/** The banner for a failed reply: the server's own words when it has them. */
export function failureText(
  reply: Reply,
  words: { failed: string; retry: string } = { failed: MERCH_MESSAGES.orderFailed, retry: MERCH_MESSAGES.orderFailedRetry },
): string {
  if (reply.network) return words.retry;
  // A message without a full stop is the server's own trouble, not something to fix here.
  if (reply.message) return /[.!?]$/.test(reply.message) ? reply.message : words.retry;
  return words.failed;
}

/**
 * History state for links that open a dialog on top of the page: closing such a dialog goes
 * back one entry instead of adding one, so the Back button and the close button agree.
 */
export const OPENED = { storeBack: true } as const;
export const openedHere = (state: unknown) => (state as { storeBack?: boolean } | null)?.storeBack === true;
