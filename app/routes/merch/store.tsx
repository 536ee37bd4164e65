import { useEffect, useRef, useState } from "react";
import { Link, type ShouldRevalidateFunction, useLocation, useMatches, useNavigate, useSearchParams } from "react-router";
import { BagDialog, useOptimisticBag } from "~/features/merch/components/bag-dialog";
import { CatalogueGrid } from "~/features/merch/components/catalogue-grid";
import { CheckoutDialog, type CheckoutReply } from "~/features/merch/components/checkout-dialog";
import { ItemDialog } from "~/features/merch/components/item-dialog";
import { BAG_HREF, itemHref, OPENED, openedHere, shareUrlFor, STORE_PATH } from "~/features/merch/components/store-links";
import type { Reply } from "~/lib/core/forms";
import { DEFAULT_CURRENCY, formatMoney, MERCH_MESSAGES, type BagView } from "~/features/merch/merch";
import { getBag, loadCatalogue } from "~/features/merch/merch.server";
import {
  addToBagAction,
  changeQuantityAction,
  checkoutAction,
  readBagId,
  removeLineAction,
} from "~/routes/merch/store.server";
import { intentOf, readSubmission, replyFromError, unknownIntent } from "~/lib/forms/submission.server";
import type { Submission } from "~/lib/core/forms";
import { pageMeta, publicOrigin } from "~/lib/core/meta";
import { site } from "~/lib/core/site";
import { trackEvent } from "~/lib/browser/track";
import storeCss from "~/styles/store.css?url";
import { networkSafe } from "~/lib/browser/client-action";
import { ORDER_REPLAYED } from "~/features/payment-codes/order-replay";
import type { PageHandle } from "~/features/analytics/page-view";
import type { CacheHandle } from "~/lib/core/page-cache";
import type { Route } from "./+types/store";
import { stkEnabled } from "~/features/stk-push/stk-push.server";

// Cached until staff change the catalogue; a visitor with a bag gets their own page.
export const handle = { page: "merch.store", cacheSeconds: 300, personalBy: ["bag"], cacheQuery: ["item", "bag", "checkout"] } satisfies CacheHandle & PageHandle;

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: storeCss }];

export const meta: Route.MetaFunction = ({ matches, loaderData, location }) => {
  const slug = new URLSearchParams(location.search).get("item");
  const item = slug ? loaderData?.items.find((i) => i.slug === slug) : undefined;
  if (item) {
    return pageMeta(matches, {
      title: item.name,
      description: `${item.name}, ${formatMoney(item.price, item.currency)}. ${item.impact || "Every purchase funds the outreach."}`,
      path: itemHref(item.slug),
      image: item.image.startsWith("/") ? item.image : undefined,
    });
  }
  return pageMeta(matches, {
    title: "Merchandise",
    description: `Hoodies, tees, totes and more from the ${site.name} pop-up store. Every purchase funds street outreach in Nairobi; delivery across Nairobi and the metropolitan area.`,
    path: STORE_PATH,
    image: "/images/merch/og-store.png",
  });
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.db;
  const [catalogue, bag] = await Promise.all([
    loadCatalogue(db),
    getBag(db, readBagId(request)).catch((e): BagView => {
      console.error("[merch] bag could not be read; showing it empty", e);
      return { lines: [], count: 0, total: 0, currency: DEFAULT_CURRENCY };
    }),
  ]);
  return { ...catalogue, bag, stkOn: stkEnabled() };
}

// Opening and closing a dialog only changes the query: the page already holds what it shows.
// Checkout is the exception: its summary is the server's latest word on the bag.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) =>
  !formMethod && currentUrl.pathname === nextUrl.pathname && nextUrl.searchParams.get("checkout") !== "1"
    ? false
    : defaultShouldRevalidate;

export async function action({ request, context }: Route.ActionArgs) {
  const bagId = readBagId(request);
  let submission: Submission;
  try {
    submission = await readSubmission(request);
  } catch (e) {
    return replyFromError(e);
  }
  const intent = intentOf(submission);
  switch (intent) {
    case "add":
      return addToBagAction(context, submission, bagId);
    case "qty":
      return changeQuantityAction(context, submission, bagId);
    case "remove":
      return removeLineAction(context, submission, bagId);
    case "checkout":
      return checkoutAction(context, submission, bagId);
    default:
      return unknownIntent(intent);
  }
}

/** A dropped connection becomes a reply the forms can word, instead of an error page. */
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => networkSafe<Reply>(serverAction);

export default function StorePage({ loaderData, actionData }: Route.ComponentProps) {
  const { items } = loaderData;
  const bag = useOptimisticBag(loaderData.bag);
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const origin = publicOrigin(useMatches());
  // A reply to a plain form (JavaScript off, or sent before the page woke up); forgotten once
  // its dialog is closed.
  const [dismissed, setDismissed] = useState<unknown>();
  const reply: Reply | undefined = actionData && actionData !== dismissed ? actionData : undefined;
  const replyFor = (intent: string) => (reply?.intent === intent ? reply : undefined);
  // The page's forms answer in one union; the intent says which form, and so what `result` is.
  const checkoutReply = replyFor("checkout") as CheckoutReply | undefined;
  const [placed, setPlaced] = useState<Placed | null>(null);
  const ordered: Placed | null = checkoutReply?.status === "success" ? { ...checkoutReply.result } : null;
  const banner = placed ?? ordered;
  const bannerRef = useRef<HTMLHeadingElement>(null);

  const checkoutOpen = params.get("checkout") === "1" && !ordered;
  const bagOpen = !checkoutOpen && params.get("bag") === "1";
  const slug = params.get("item");
  const item = !checkoutOpen && !bagOpen && slug ? items.find((i) => i.slug === slug) : undefined;

  useEffect(() => trackEvent("merch.store view"), []);
  useEffect(() => {
    if (placed && !checkoutOpen) bannerRef.current?.focus();
  }, [placed, checkoutOpen]);

  /** Closes a dialog: back one entry when this page opened it, else to `href` in place. */
  const closeTo = (href: string) => () => {
    setDismissed(actionData);
    if (openedHere(location.state)) void navigate(-1);
    else void navigate(href, { replace: true, preventScrollReset: true });
  };

  return (
    <>
      {banner ? <OrderPlaced placed={banner} headingRef={bannerRef} /> : null}
      <section className="hero store-hero" aria-labelledby="store-title" data-scripts-start="idle">
        <div className="container">
          <div className="store-hero-top">
            <p className="eyebrow">Pop-up store</p>
            {bag.count > 0 ? (
              <Link to={BAG_HREF} state={OPENED} preventScrollReset className="button button-lamp button-small store-cart">
                Cart <span className="cart-count">{bag.count}</span>
                <span className="visually-hidden"> {bag.count === 1 ? "item" : "items"}</span>
              </Link>
            ) : null}
          </div>
          <h1 id="store-title">Wear the light</h1>
          <p className="lead">
            Hoodies, tees, totes and more from {site.name}. Every shilling goes back to the streets of Nairobi.
          </p>
          <ul className="store-facts" role="list">
            <li>
              <strong>46,000+</strong> street families supported
            </li>
            <li>Every purchase funds the outreach</li>
            <li>Delivery zones: Nairobi &amp; metropolitan</li>
          </ul>
        </div>
      </section>

      <section className="section store-catalogue" aria-labelledby="catalogue-title">
        <div className="container">
          <h2 id="catalogue-title">The collection</h2>
          <CatalogueGrid items={items} />
          <span id="store-steps-title" className="visually-hidden">
            How ordering works
          </span>
          <ol className="store-steps" aria-labelledby="store-steps-title">
            <li>Pick your items and add them to your bag.</li>
            <li>
              Pay the total by M-Pesa: paybill {site.payments.merchPaybill}, account {site.payments.merchAccount}.
            </li>
            <li>Send your order with the M-Pesa code; we confirm delivery and payment with you.</li>
          </ol>
        </div>
      </section>

      {/* An empty bag needs no floating button (and it would cover the order's answer). */}
      {bag.count > 0 ? (
      <Link to={BAG_HREF} state={OPENED} preventScrollReset className="bag-fab">
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path d="M6 7h12l1 13H5L6 7Z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
          <path d="M9 9V6a3 3 0 0 1 6 0v3" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        Bag <span className="bag-fab-count">{bag.count}</span>
        <span className="visually-hidden"> {bag.count === 1 ? "item" : "items"}</span>
      </Link>
      ) : null}

      {checkoutOpen ? (
        <CheckoutDialog
          bag={loaderData.bag}
          serverReply={checkoutReply}
          stkOn={loaderData.stkOn}
          onClose={closeTo(BAG_HREF)}
          onPlaced={(result) => {
            setPlaced(result ?? {});
            void navigate(STORE_PATH, { replace: true, preventScrollReset: true });
          }}
        />
      ) : bagOpen ? (
        <BagDialog bag={loaderData.bag} serverReply={replyFor("qty") ?? replyFor("remove")} onClose={closeTo(STORE_PATH)} />
      ) : item ? (
        <ItemDialog
          key={item.slug}
          item={item}
          shareUrl={shareUrlFor(origin, item.slug)}
          serverReply={replyFor("add")}
          onClose={closeTo(STORE_PATH)}
          onAdded={() => void navigate(BAG_HREF, { replace: true, preventScrollReset: true, state: location.state })}
        />
      ) : null}
    </>
  );
}

type Placed = { id?: string; total?: number; currency?: string; orderPath?: string; replayed?: boolean };

/**
 * The answer to 'Place order', first on the page (after a plain form post the page opens at
 * the top): the order id large, and what happens next.
 */
function OrderPlaced({ placed, headingRef }: { placed: Placed; headingRef: React.Ref<HTMLHeadingElement> }) {
  const pay = site.payments;
  const amount = placed.total !== undefined ? formatMoney(placed.total, placed.currency ?? DEFAULT_CURRENCY) : "the total";
  return (
    <section className="order-placed" aria-labelledby="order-placed-title">
      <div className="container">
        <h2 id="order-placed-title" tabIndex={-1} ref={headingRef}>
          Thank you! Your order is in.
        </h2>
        {placed.replayed ? <p>{ORDER_REPLAYED}</p> : null}
        {placed.id ? (
          <p className="order-placed-ref">
            <span>Order number</span> <strong>{placed.id}</strong>
          </p>
        ) : null}
        <p role="status">{placed.id ? MERCH_MESSAGES.orderSuccess(placed.id) : MERCH_MESSAGES.orderSuccessNoId}</p>
        <h3>What happens next</h3>
        <ol>
          <li>
            If you have not paid yet, pay {amount} by M-Pesa: paybill {pay.merchPaybill}, account {pay.merchAccount}. If
            you already paid, do not pay again.
          </li>
          <li>The merch team checks your payment and emails you to confirm delivery.</li>
          <li>Questions? Reply to that email, quoting your order number.</li>
        </ol>
        {placed.orderPath ? (
          <p>
            <a href={placed.orderPath}>See your order</a>: whether your payment has reached us, and where your order
            stands. The same link is in your email.
          </p>
        ) : null}
      </div>
    </section>
  );
}
