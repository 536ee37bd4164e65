/** The private page of one order (badge or merch): its reference and the token from its email. */
export const orderPagePath = (reference: string, token: string) =>
  `/orders/${encodeURIComponent(reference)}?t=${encodeURIComponent(token)}`;
