/**
 * A retried order (the answer to the first was lost on the way) is answered with the order
 * already stored, in these words, on the order forms and in the JSON APIs.
 */
export const ORDER_REPLAYED =
  "We already have your order: this is the one you placed with this payment code. Nothing new was placed, and you do not need to pay again.";

/**
 * What a JSON answer to a placed order adds: the order page's address (the link its email
 * carries), and when the order was already stored, `replayed` and the sentence.
 */
export const replayNote = (placed: { replayed?: true; orderPath: string }, absoluteUrl: (path: string) => string) => ({
  orderUrl: absoluteUrl(placed.orderPath),
  ...(placed.replayed ? { replayed: true, message: ORDER_REPLAYED } : {}),
});
