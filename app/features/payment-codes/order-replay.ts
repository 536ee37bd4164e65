/**
 * A retried order (the answer to the first was lost on the way) is answered with the order
 * already stored, in these words, on the order forms and in the JSON APIs.
 */
export const ORDER_REPLAYED =
  "We already have your order: this is the one you placed with this payment code. Nothing new was placed, and you do not need to pay again.";

/** What a JSON answer adds when the order was already stored. */
export const replayNote = (placed: { replayed?: true }) => (placed.replayed ? { replayed: true, message: ORDER_REPLAYED } : {});
