import { Link, useFetcher, useFetchers } from "react-router";
import { formatMoney, MAX_LINE_QUANTITY, MERCH_MESSAGES, type BagLine, type BagView } from "../merch";
import { clampQuantity } from "./checks";
import { EnhancedFlag, StoreDialog } from "./store-dialog";
import { BAG_HREF, CHECKOUT_HREF, OPENED, STORE_PATH } from "./store-links";
import type { Reply } from "~/lib/core/forms";
import { ErrorBanner } from "~/components/ui/error-banner";

const LINE_FAILED = "Your bag could not be changed. Please try again.";

/** A line's words for screen readers: the name with its colour and size. */
export const lineLabel = (line: BagLine) =>
  [line.name, line.color?.label, line.size ? sizeText(line.size) : null].filter(Boolean).join(", ");

/** "Size M", but "One size" as it is. */
export const sizeText = (size: string) => (/size/i.test(size) ? size : `Size ${size}`);

/** The bag as the visitor will see it once the quantity changes in flight have landed. */
export function useOptimisticBag(bag: BagView): BagView {
  const pending = new Map<string, number | "remove">();
  for (const f of useFetchers()) {
    const fd = f.formData;
    if (!fd) continue;
    const key = String(fd.get("key") ?? "");
    if (fd.get("intent") === "remove") pending.set(key, "remove");
    else if (fd.get("intent") === "qty") pending.set(key, clampQuantity(String(fd.get("quantity") ?? "1")));
  }
  if (pending.size === 0) return bag;
  const lines = bag.lines
    .filter((l) => pending.get(l.key) !== "remove")
    .map((l) => {
      const q = pending.get(l.key);
      return typeof q === "number" ? { ...l, quantity: q } : l;
    });
  return {
    ...bag,
    lines,
    count: lines.reduce((n, l) => n + l.quantity, 0),
    total: lines.reduce((n, l) => n + l.price * l.quantity, 0),
  };
}

type Props = { bag: BagView; serverReply?: Reply; onClose(): void };

/** The bag (?bag=1): every line with its quantity buttons and Remove, the total, Checkout. */
export function BagDialog({ bag: saved, serverReply, onClose }: Props) {
  const bag = useOptimisticBag(saved);
  const failed = serverReply?.status === "error" ? (serverReply.message ?? LINE_FAILED) : null;
  return (
    <StoreDialog id="bag" title="Your bag" closeHref={STORE_PATH} onClose={onClose} className="bag-dialog">
      {(close) => (
        <>
          <ErrorBanner message={failed} />
          {bag.lines.length === 0 ? (
            <div className="bag-empty">
              <p>
                <strong>{MERCH_MESSAGES.emptyBag}</strong>
              </p>
              <p>Pick a hoodie, a tee or a tote: every purchase funds the outreach.</p>
            </div>
          ) : (
            <>
              <p className="bag-count">
                {bag.count} {bag.count === 1 ? "item" : "items"}
              </p>
              <ul className="bag-lines" role="list">
                {bag.lines.map((line) => (
                  <BagLineRow key={line.key} line={line} />
                ))}
              </ul>
              <p className="bag-total">
                <span>Total</span> <strong>{formatMoney(bag.total, bag.currency)}</strong>
              </p>
            </>
          )}
          <div className="actions dialog-actions">
            {bag.lines.length > 0 ? (
              <Link to={CHECKOUT_HREF} state={OPENED} preventScrollReset className="button button-lamp bag-checkout">
                Checkout
              </Link>
            ) : null}
            {/* With something to check out, Checkout is the one button; browsing on is a plain link. */}
            <Link
              to={STORE_PATH}
              replace
              preventScrollReset
              className={bag.lines.length > 0 ? "bag-browse" : "button button-ghost"}
              onClick={close}
            >
              Keep browsing
            </Link>
          </div>
        </>
      )}
    </StoreDialog>
  );
}

function BagLineRow({ line }: { line: BagLine }) {
  const qty = useFetcher<Reply>();
  const remove = useFetcher<Reply>();
  const label = lineLabel(line);
  const q = line.quantity;
  const failed = [qty, remove].some((f) => f.state === "idle" && f.data?.status === "error");
  return (
    <li className="bag-line">
      <img src={line.image} width={72} height={72} alt="" loading="lazy" decoding="async" />
      <div className="bag-line-info">
        <h3>{line.name}</h3>
        <p className="bag-line-options">
          {line.color ? (
            <span className="bag-line-colour">
              <span className="swatch swatch-small" style={{ background: line.color.swatch }} aria-hidden="true" />
              {line.color.label}
            </span>
          ) : null}
          {line.size ? <span>{sizeText(line.size)}</span> : null}
        </p>
        <p className="bag-line-price">{formatMoney(line.price, line.currency)} each</p>
        {!line.available ? (
          <p className="bag-line-warning">
            <span className="pill pill-restocking">Restocking</span> Remove it to check out.
          </p>
        ) : null}
      </div>
      <div className="bag-line-controls">
        <qty.Form method="post" action={BAG_HREF} preventScrollReset className="qty-stepper">
          <input type="hidden" name="intent" value="qty" />
          <input type="hidden" name="key" value={line.key} />
          <EnhancedFlag />
          <button type="submit" name="quantity" value={q - 1} className="qty-step" disabled={q <= 1} aria-label={`One fewer: ${label}`}>
            <span aria-hidden="true">−</span>
          </button>
          <span className="qty-value">
            <span className="visually-hidden">Quantity </span>
            {q}
          </span>
          <button
            type="submit"
            name="quantity"
            value={q + 1}
            className="qty-step"
            disabled={q >= MAX_LINE_QUANTITY}
            aria-label={`One more: ${label}`}
          >
            <span aria-hidden="true">+</span>
          </button>
        </qty.Form>
        <remove.Form method="post" action={BAG_HREF} preventScrollReset>
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="key" value={line.key} />
          <EnhancedFlag />
          <button type="submit" className="link-button">
            Remove<span className="visually-hidden">: {label}</span>
          </button>
        </remove.Form>
        <p className="bag-line-subtotal">
          <span className="visually-hidden">Subtotal </span>
          {formatMoney(line.price * q, line.currency)}
        </p>
      </div>
      {failed ? <p className="field-error bag-line-error">{LINE_FAILED}</p> : null}
    </li>
  );
}
