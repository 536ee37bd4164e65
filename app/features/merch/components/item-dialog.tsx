import { ResponsiveImage } from "~/components/ui/responsive-image";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { otherErrors, useFormChecks, useSettledReply } from "~/components/ui/form-checks";
import { FieldError, Honeypot, useHydrated } from "~/components/ui/form-parts";
import { trackEvent } from "~/lib/browser/track";
import { formatMoney, MAX_LINE_QUANTITY, MERCH_MESSAGES, type MerchItem } from "../merch";
import { checkAddToBag, clampQuantity } from "./checks";
import { ShareLinks } from "./share-links";
import { StoreDialog } from "./store-dialog";
import { ENHANCED_FIELD, failureText, itemHref, STORE_PATH } from "./store-links";
import type { Reply } from "~/lib/core/forms";
import { ErrorBanner } from "~/components/ui/error-banner";

const FIELDS = ["color", "size", "quantity"] as const;
const ADD_FAILED = { failed: "Could not add that to your bag.", retry: "Could not add that to your bag. Please try again." };

type Props = {
  item: MerchItem;
  shareUrl: string;
  /** The action's reply when the form was sent without JavaScript. */
  serverReply?: Reply;
  onClose(): void;
  /** With JavaScript, after a successful add: close this dialog and open the bag. */
  onAdded(): void;
};

/** One item (?item=slug): pictures, choices, quantity, 'Add to bag' and the share links. */
export function ItemDialog({ item, shareUrl, serverReply, onClose, onAdded }: Props) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<Reply>();
  const reply = fetcher.data ?? serverReply;
  const values = reply?.status === "error" ? (reply.values ?? {}) : {};
  // Choices start at the first option and quantity 1 (the dialog is keyed by item). The fields
  // are the page's own (uncontrolled): what the reader chose or typed before the scripts arrived
  // stays, and these copies, for the colour's name, its picture and the steppers, are read from
  // the fields when the page hydrates.
  const [firstColor] = useState(() => pick(values.color, item.colors.map((c) => c.label)));
  const [firstSize] = useState(() => pick(values.size, item.sizes));
  const [firstQuantity] = useState(values.quantity ?? "1");
  const [color, setColor] = useState(firstColor);
  const [quantity, setQuantity] = useState(firstQuantity);
  const quantityRef = useRef<HTMLInputElement>(null);
  const busy = fetcher.state !== "idle";
  // Fields changed since the last submit show no (stale) error.
  const { formRef, errorOf, hasClientErrors, showErrors, focusFirstError, onInput, markEdited } = useFormChecks({
    fields: FIELDS,
    reply,
    busy,
    idPrefix: "item",
  });
  const other = otherErrors(FIELDS, reply);
  let banner: string | null = null;
  if (!busy && !hasClientErrors && reply?.status === "error") {
    if (reply.message || reply.network) banner = failureText(reply, ADD_FAILED);
    else if (other.length) banner = other.join(" ");
  }
  const chosen = item.colors.find((c) => c.label === color);
  const image = chosen?.image || item.image;
  const n = Number(quantity);

  useEffect(() => trackEvent("merch.item.view", { slug: item.slug }), [item.slug]);

  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const chosen = form.querySelector<HTMLInputElement>('input[name="color"]:checked');
    if (chosen) setColor(chosen.value);
    if (quantityRef.current) setQuantity(quantityRef.current.value);
  }, []);

  function setQuantityField(value: string) {
    if (quantityRef.current) quantityRef.current.value = value;
    setQuantity(value);
  }

  // Once per reply, after the page has reloaded the bag (the fetcher is idle again).
  useSettledReply(fetcher, (data) => {
    if (data.status === "success") {
      trackEvent("merch.cart.add", { itemId: item.id });
      onAdded();
    } else focusFirstError(data.fieldErrors);
  });

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const fd = new FormData(e.currentTarget);
    const text = (k: string) => String(fd.get(k) ?? "");
    if (!showErrors(checkAddToBag(item, { color: text("color"), size: text("size"), quantity: text("quantity") }))) return;
    fd.set(ENHANCED_FIELD, "1");
    void fetcher.submit(fd, { method: "post", action: itemHref(item.slug), preventScrollReset: true });
  }

  const describedBy = (f: string) => (errorOf(f) ? `item-${f}-error` : undefined);

  return (
    <StoreDialog id="item" title={item.name} closeHref={STORE_PATH} onClose={onClose} className="item-dialog">
      {() => (
        <div className="item-layout">
          <div className="item-media">
            <ResponsiveImage
              src={image}
              width={480}
              height={480}
              maxWidth={420}
              sizes="(min-width: 720px) 420px, 90vw"
              alt={`${item.name}${chosen ? `, ${chosen.label}` : ""}`}
              priority
            />
          </div>
          <div className="item-info">
            <p className="item-price">{formatMoney(item.price, item.currency)}</p>
            {item.description ? <p>{item.description}</p> : null}
            {item.impact ? (
              <p className="item-impact">
                <span className="item-impact-label">Your impact:</span> {item.impact}
              </p>
            ) : null}

            {item.available ? (
              <form
                ref={formRef}
                method="post"
                action={itemHref(item.slug)}
                onSubmit={onSubmit}
                onInput={onInput}
                noValidate={hydrated}
                className="item-form"
              >
                <input type="hidden" name="intent" value="add" />
                <input type="hidden" name="itemId" value={item.id} />
                <Honeypot />
                <ErrorBanner message={banner} />
                {item.colors.length > 0 ? (
                  <fieldset className="choice-group" aria-describedby={describedBy("color")}>
                    <legend>
                      Colour{hydrated ? <span className="choice-current">: {color || "choose one"}</span> : null}
                    </legend>
                    <div className="swatch-list">
                      {item.colors.map((c) => (
                        <label key={c.label} className="swatch-option">
                          <input
                            type="radio"
                            name="color"
                            value={c.label}
                            defaultChecked={firstColor === c.label}
                            onChange={() => setColor(c.label)}
                            required
                          />
                          <span className="swatch" style={{ background: c.swatch }} aria-hidden="true" />
                          <span className="swatch-label">{c.label}</span>
                        </label>
                      ))}
                    </div>
                    <FieldError id="item-color-error" message={errorOf("color")} />
                  </fieldset>
                ) : null}
                {item.sizes.length > 0 ? (
                  <fieldset className="choice-group" aria-describedby={describedBy("size")}>
                    <legend>Size</legend>
                    <div className="size-list">
                      {item.sizes.map((s) => (
                        <label key={s} className="size-option">
                          <input type="radio" name="size" value={s} defaultChecked={firstSize === s} required />
                          <span>{s}</span>
                        </label>
                      ))}
                    </div>
                    <FieldError id="item-size-error" message={errorOf("size")} />
                  </fieldset>
                ) : null}
                <div className="field qty-field">
                  <label htmlFor="item-quantity">Quantity</label>
                  <div className="qty-control">
                    {hydrated ? (
                      <button
                        type="button"
                        className="qty-step"
                        onClick={() => {
                          setQuantityField(String(clampQuantity(n - 1)));
                          markEdited("quantity");
                        }}
                        disabled={!(n > 1)}
                        aria-label="Decrease quantity"
                      >
                        <span aria-hidden="true">−</span>
                      </button>
                    ) : null}
                    <input
                      id="item-quantity"
                      type="number"
                      name="quantity"
                      min={1}
                      max={MAX_LINE_QUANTITY}
                      step={1}
                      inputMode="numeric"
                      required
                      ref={quantityRef}
                      defaultValue={firstQuantity}
                      onChange={(e) => setQuantity(e.currentTarget.value)}
                      onBlur={(e) => setQuantityField(String(clampQuantity(e.currentTarget.value)))}
                      aria-invalid={errorOf("quantity") ? true : undefined}
                      aria-describedby={describedBy("quantity")}
                    />
                    {hydrated ? (
                      <button
                        type="button"
                        className="qty-step"
                        onClick={() => {
                          setQuantityField(String(clampQuantity(n + 1)));
                          markEdited("quantity");
                        }}
                        disabled={n >= MAX_LINE_QUANTITY}
                        aria-label="Increase quantity"
                      >
                        <span aria-hidden="true">+</span>
                      </button>
                    ) : null}
                  </div>
                  <FieldError id="item-quantity-error" message={errorOf("quantity")} />
                </div>
                <div className="item-add-row">
                  <p className="item-add-price" aria-hidden="true">
                    {formatMoney(item.price, item.currency)}
                    <span className="small muted"> each</span>
                  </p>
                  <button type="submit" className="button-lamp item-add" disabled={busy}>
                    {busy ? "Adding…" : "Add to bag"}
                  </button>
                </div>
              </form>
            ) : (
              <p className="item-restocking">
                <span className="pill pill-restocking">Restocking</span> {MERCH_MESSAGES.restocking}
              </p>
            )}
            <ShareLinks item={item} url={shareUrl} />
          </div>
        </div>
      )}
    </StoreDialog>
  );
}

function pick(wanted: string | undefined, options: string[]) {
  return wanted && options.includes(wanted) ? wanted : (options[0] ?? "");
}
