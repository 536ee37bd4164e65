/**
 * 'An order or a payment arrived': domain code says so, and whatever acts on a verified
 * payment (the automatic approval) listens. A signal rather than an import keeps the payment
 * ledger, the orders and the approval that joins them free of import cycles. Listeners run
 * after the caller's work is stored; they must not throw (each is guarded).
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function onPaymentsChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function paymentsChanged(): void {
  for (const listener of listeners) {
    try {
      listener();
    } catch (e) {
      console.error("[payments] listener failed", e);
    }
  }
}
