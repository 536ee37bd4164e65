import { useState } from "react";
import { data, useMatches, useNavigate, useSearchParams, type ShouldRevalidateFunction } from "react-router";
import { FormStatus } from "~/components/ui/form-parts";
import { BADGE_FORM_MAX_BYTES, badgeOrderAction, PORTRAIT_FILE_FIELDS } from "~/routes/event/badge-order.server";
import { ORDER_SUCCESS, OrderDialog, type OrderReply } from "~/features/event-badges/components/order-dialog";
import { networkSafe } from "~/lib/browser/client-action";
import { ORDER_REPLAYED } from "~/features/payment-codes/order-replay";
import type { Reply } from "~/lib/core/forms";
import { ShareInvite } from "~/features/event-badges/components/share-invite";
import { TierGrid } from "~/features/event-badges/components/tier-grid";
import { useEventProgress } from "~/features/event-badges/components/goal-bar";
import { eventProgress } from "~/features/event-badges/progress.server";
import { findTier, formatKes } from "~/features/event-badges/tiers";
import { DEFAULT_EVENT, eventDateText, eventWhenText } from "~/features/event-badges/event";
import { getEvent } from "~/features/event-badges/event.server";
import { NewsletterForm } from "~/features/newsletter/components/newsletter-form";
import { newsletterAction } from "~/routes/site/newsletter-form.server";
import { intentOf, readSubmission, replyFromError, submissionOf, unknownIntent } from "~/lib/forms/submission.server";
import type { Submission } from "~/lib/core/forms";
import { readStreamedForm } from "~/lib/http/multipart.server";
import { portraitTooLargeMessage } from "~/features/event-badges/portrait";
import { HttpError } from "~/lib/http/http.server";
import { admitPublicBody } from "~/lib/http/upload-guard.server";
import { pageMeta, publicOrigin } from "~/lib/core/meta";
import eventCss from "~/styles/event.css?url";
import type { PageHandle } from "~/features/analytics/page-view";
import type { CacheHandle } from "~/lib/core/page-cache";
import type { Route } from "./+types/event";
import { stkEnabled } from "~/features/stk-push/stk-push.server";

export const handle = { page: "event.badges", cacheSeconds: 300, cacheQuery: ["tier"] } satisfies CacheHandle & PageHandle;

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: eventCss }];

/** The address without its `tier` (the order dialog's), to compare two addresses of the page by. */
function withoutTier(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.delete("tier");
  params.sort();
  return `${url.pathname}?${params}`;
}

// Opening and closing a tier's order dialog (a tap on 'Support & confirm', its close links) only
// changes `?tier=`: the page already holds what the dialog shows, so the dialog opens at once,
// without a round trip for the loader's data. A sent form still brings the latest progress.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) =>
  !formMethod && currentUrl.searchParams.get("tier") !== nextUrl.searchParams.get("tier") && withoutTier(currentUrl) === withoutTier(nextUrl)
    ? false
    : defaultShouldRevalidate;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const event = loaderData?.event ?? DEFAULT_EVENT;
  return pageMeta(matches, {
    title: "Street Vespers badges",
    description: `Support the ${event.title} on ${eventDateText(event)}: choose a badge tier from ${formatKes(300)}, pay by M-Pesa and get a personal QR badge for the evening.`,
    path: "/event",
  });
};

export async function loader({ context }: Route.LoaderArgs) {
  const event = await getEvent(context.db);
  const progress = await eventProgress(context.db, event);
  return { progress, event, stkOn: stkEnabled() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const multipart = (request.headers.get("content-type") ?? "").includes("multipart/form-data");
  // A portrait upload is admitted (counted against the address, a site-wide slot) before it is read.
  let slot;
  try {
    slot = await admitPublicBody(request, context, multipart ? BADGE_FORM_MAX_BYTES : 32 * 1024);
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    // Too large to read through: the photo's size is all the headers say.
    const declared = Number(request.headers.get("content-length"));
    const tooLarge = multipart && e.status === 413 && declared > BADGE_FORM_MAX_BYTES;
    const answer = tooLarge ? { fieldErrors: { portrait: [portraitTooLargeMessage(declared)] } } : { message: e.message };
    return data<Reply<never>>({ status: "error", ...answer, intent: multipart ? "order" : "subscribe" }, { status: e.status, headers: e.headers });
  }
  let dispose = async () => {};
  try {
    let submission: Submission;
    try {
      if (multipart) {
        // The order form's photo is written to a temporary file as it arrives, never held in memory.
        const streamed = await readStreamedForm(request, { maxBytes: BADGE_FORM_MAX_BYTES, files: PORTRAIT_FILE_FIELDS });
        dispose = streamed.dispose;
        submission = submissionOf(streamed.form);
      } else {
        submission = await readSubmission(request, 32 * 1024);
      }
    } catch (e) {
      return replyFromError(e, { intent: multipart ? "order" : "subscribe" });
    }
    const intent = intentOf(submission, "subscribe");
    switch (intent) {
      case "order":
        return await badgeOrderAction(context, submission);
      case "subscribe":
        return await newsletterAction(request, context, { submission, intent });
      default:
        return unknownIntent(intent);
    }
  } finally {
    await dispose();
    slot.release();
  }
}

/** A dropped connection becomes a reply the forms can word, instead of an error page. */
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => networkSafe<Reply>(serverAction);

export default function EventPage({ actionData, loaderData }: Route.ComponentProps) {
  const progress = useEventProgress(loaderData.progress);
  const { event } = loaderData;
  const dateText = eventDateText(event);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const tier = findTier(params.get("tier"));
  const eventUrl = `${publicOrigin(useMatches())}/event`;
  const reply: Reply | undefined = actionData;
  // The dialog forgets a full-page reply once closed; the page banner keeps the good news.
  const [dismissed, setDismissed] = useState<Reply | undefined>();
  const [placed, setPlaced] = useState<{ reference?: string; replayed?: boolean } | null>(null);
  // The page's forms answer in one union; the intent says which form, and so what `result` is.
  const orderReply = reply?.intent === "order" ? (reply as OrderReply) : undefined;
  const banner = placed ?? (orderReply?.status === "success" ? { reference: orderReply.result?.id, replayed: orderReply.result?.replayed } : null);

  function closeDialog() {
    setDismissed(reply);
    const next = new URLSearchParams(window.location.search);
    if (!next.has("tier")) return;
    next.delete("tier");
    const search = next.toString();
    navigate({ pathname: "/event", search: search ? `?${search}` : "" }, { replace: true, preventScrollReset: true });
  }

  return (
    <>
      <section className="hero event-hero" aria-labelledby="event-title" data-scripts-start="idle">
        <div className="container">
          <p className="eyebrow">
            <time dateTime={event.time ? `${event.date}T${event.time}` : event.date}>{eventWhenText(event)}</time> · {event.venue} · Fundraising evening
          </p>
          <h1 id="event-title">Wear your support at Street Vespers</h1>
          <p className="lead event-lead">
            Choose a supporter tier, pay by M-Pesa and confirm here: we email you a personal QR badge and a 'Will Be
            Attending' poster for the {event.title}.
          </p>
          <p className="event-target">
            <span>Raise target</span> <strong>{formatKes(progress.target)}</strong>
          </p>
        </div>
      </section>

      <section className="section event-tiers" id="tiers" aria-labelledby="tiers-title">
        <div className="container">
          <h2 id="tiers-title">Choose your badge tier</h2>
          <FormStatus tone={banner ? "success" : null}>
            {banner?.replayed ? ORDER_REPLAYED : ORDER_SUCCESS}
            {banner?.reference ? ` Your reference: ${banner.reference}.` : null}
          </FormStatus>
          <TierGrid progress={progress} />
        </div>
      </section>

      <section className="section section-alt" id="updates" aria-labelledby="updates-title">
        <div className="container narrow">
          <div className="form-card update-box">
            <h2 id="updates-title">Get event updates</h2>
            <p className="small">
              On {dateText} we gather in {event.venue} for songs, stories and prayer that fund a year of evenings
              on the streets. Concert news and vespers stories, now and then. No spam.
            </p>
            <NewsletterForm
              variant="event"
              source="event"
              action="/event"
              buttonLabel="Send me updates"
              serverReply={reply?.intent === "subscribe" ? reply : undefined}
            />
            <div className="share-row">
              <span>Bringing friends?</span>
              <ShareInvite
                url={eventUrl}
                text={`Join me at the ${event.title} on ${dateText} in ${event.venue}:`}
                statusId="share-status"
              />
            </div>
          </div>
        </div>
      </section>

      {tier ? (
        <OrderDialog
          key={tier.key}
          tier={tier}
          serverReply={orderReply && orderReply !== dismissed ? orderReply : undefined}
          onClose={closeDialog}
          onSuccess={(reference, replayed) => setPlaced({ reference, replayed })}
          stkOn={loaderData.stkOn}
        />
      ) : null}
    </>
  );
}
