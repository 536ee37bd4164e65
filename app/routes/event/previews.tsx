import { useEffect, useState } from "react";
import { Form } from "react-router";
import { FieldError } from "~/components/ui/form-parts";
import {
  eventShareUrl,
  isShareUrl,
  looksLikeSitePortrait,
  NAME_MESSAGE,
  PORTRAIT_URL_MAX_LENGTH,
  PORTRAIT_URL_MESSAGE,
  SAMPLE_NAME,
  SHARE_URL_MAX_LENGTH,
  SHARE_URL_MESSAGE,
} from "~/features/event-badges/preview";
import { MAX_NAME_LENGTH } from "~/features/badge-art/text";
import { PreviewImageSchema } from "~/features/event-badges/preview.schema";
import { resolveSiteImage } from "~/features/event-badges/site-image.server";
import { findTier, formatKes, TIERS, type Tier } from "~/features/event-badges/tiers";
import { env } from "~/lib/server/env.server";
import { pageMeta } from "~/lib/core/meta";
import previewsCss from "~/styles/previews.css?url";
import type { Route } from "./+types/previews";

export const handle = { page: "event.previews" };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: previewsCss }];

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Event badge preview",
    description: "Preview the 1080x1080 supporter badge and 'Will Be Attending' poster for each sponsorship tier.",
    path: "/event/previews",
    noindex: true,
  });

type Fields = { tier: Tier["key"]; name: string; share: string; portrait: string };
type Errors = Partial<Record<"name" | "share" | "portrait", string>>;

export async function loader({ request, url }: Route.LoaderArgs) {
  const origin = env().publicUrl;
  const params = url.searchParams;
  const tier = findTier(params.get("tier"))?.key ?? TIERS[0]?.key ?? "t1";
  // The share URL follows the tier until someone types their own.
  const defaults = TIERS.map((t) => eventShareUrl(origin, t.key));
  const sentShare = params.get("share")?.trim() ?? "";
  const fields: Fields = {
    tier,
    name: params.get("name") ?? SAMPLE_NAME,
    share: !sentShare || defaults.includes(sentShare) ? eventShareUrl(origin, tier) : sentShare,
    portrait: params.get("portrait")?.trim() ?? "",
  };

  const parsed = PreviewImageSchema.safeParse({ kind: "badge", ...fields });
  const errors: Errors = {};
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const key = issue.path[0];
    if (key === "name" || key === "share" || key === "portrait") errors[key] ??= issue.message;
  }
  if (fields.portrait && !errors.portrait) {
    await resolveSiteImage(fields.portrait).catch(() => {
      errors.portrait = PORTRAIT_URL_MESSAGE;
    });
  }
  return { origin, fields, errors };
}

function imageUrl(kind: "poster" | "badge", f: Fields) {
  const q = new URLSearchParams({ kind, tier: f.tier, name: f.name.trim() || SAMPLE_NAME, share: f.share.trim() });
  if (f.portrait.trim()) q.set("portrait", f.portrait.trim());
  return `/event/previews/image.png?${q}`;
}

/** The same rules as the image route, checked in the browser before asking for a picture. */
function clientErrors(f: Fields): Errors {
  const errors: Errors = {};
  if (Array.from(f.name.trim()).length > MAX_NAME_LENGTH) errors.name = NAME_MESSAGE;
  if (!isShareUrl(f.share.trim())) errors.share = SHARE_URL_MESSAGE;
  const portrait = f.portrait.trim();
  if (portrait && !looksLikeSitePortrait(portrait)) errors.portrait = PORTRAIT_URL_MESSAGE;
  return errors;
}

export default function Previews({ loaderData }: Route.ComponentProps) {
  const { origin, fields: initial, errors: serverErrors } = loaderData;
  if (TIERS.length === 0) {
    return (
      <section className="section">
        <div className="container narrow">
          <h1>Event badge preview</h1>
          <p className="notice">Event badge preview: there are no sponsorship tiers to preview yet.</p>
        </div>
      </section>
    );
  }
  // Remount the form when the server answers a submitted query, so the fields show its values.
  return <PreviewSurface key={JSON.stringify(initial)} origin={origin} initial={initial} serverErrors={serverErrors} />;
}

function PreviewSurface({ origin, initial, serverErrors }: { origin: string; initial: Fields; serverErrors: Errors }) {
  const [fields, setFields] = useState(initial);
  const [shown, setShown] = useState(initial);
  const [errors, setErrors] = useState<Errors>(serverErrors);
  const [broken, setBroken] = useState(false);

  // Live previews: after a pause in typing, point the images at the new fields.
  useEffect(() => {
    if (fields === initial) return;
    const timer = setTimeout(() => {
      const found = clientErrors(fields);
      setErrors(found);
      if (Object.keys(found).length === 0) {
        setBroken(false);
        setShown(fields);
      }
    }, 400);
    return () => clearTimeout(timer);
  }, [fields, initial]);

  const update = (patch: Partial<Fields>) =>
    setFields((f) => {
      const next = { ...f, ...patch };
      // Changing the tier moves an untouched share URL along with it.
      if (patch.tier && f.share.trim() === eventShareUrl(origin, f.tier)) next.share = eventShareUrl(origin, patch.tier);
      return next;
    });

  const tier = findTier(shown.tier) ?? TIERS[0]!;
  const hasErrors = Object.keys(serverErrors).length > 0 && shown === initial;
  const label = `${shown.name.trim() || SAMPLE_NAME}, ${tier.name}`;

  return (
    <section className="section previews">
      <div className="container">
        <p className="eyebrow">Design surface</p>
        <h1>Event badge preview</h1>
        <p className="lead">
          The supporter badge and the 'Will Be Attending' poster, drawn exactly as they are emailed: 1080 by 1080
          pixels, one per sponsorship tier.
        </p>

        <div className="previews-layout">
          <Form method="get" action="/event/previews" className="form-card previews-form" noValidate>
            <fieldset className="tier-picker">
              <legend>Tier</legend>
              {TIERS.map((t) => (
                <label key={t.key} className="tier-option">
                  <input
                    type="radio"
                    name="tier"
                    value={t.key}
                    checked={fields.tier === t.key}
                    onChange={() => update({ tier: t.key })}
                  />
                  <span className="tier-swatch" style={{ background: t.theme.primary, borderColor: t.theme.accent }} aria-hidden="true" />
                  <span className="tier-text">
                    <strong>{t.name}</strong>
                    <span className="small muted">
                      {t.subtitle} · {formatKes(t.amount)}
                    </span>
                  </span>
                </label>
              ))}
            </fieldset>

            <div className="field">
              <label htmlFor="preview-name">Attendee name</label>
              <input
                id="preview-name"
                type="text"
                name="name"
                maxLength={MAX_NAME_LENGTH}
                autoComplete="off"
                value={fields.name}
                onChange={(e) => update({ name: e.target.value })}
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={errors.name ? "preview-name-error" : undefined}
              />
              <FieldError id="preview-name-error" message={errors.name} />
            </div>

            <div className="field">
              <label htmlFor="preview-share">Share URL</label>
              <input
                id="preview-share"
                type="url"
                name="share"
                maxLength={SHARE_URL_MAX_LENGTH}
                value={fields.share}
                onChange={(e) => update({ share: e.target.value })}
                aria-invalid={errors.share ? true : undefined}
                aria-describedby={errors.share ? "preview-share-error" : "preview-share-hint"}
              />
              <p className="field-hint" id="preview-share-hint">
                The poster's QR code opens this address. It follows the tier until you change it.
              </p>
              <FieldError id="preview-share-error" message={errors.share} />
            </div>

            <div className="field">
              <label htmlFor="preview-portrait">Portrait image URL (optional)</label>
              <input
                id="preview-portrait"
                type="text"
                name="portrait"
                maxLength={PORTRAIT_URL_MAX_LENGTH}
                placeholder="/brand/portrait.jpg"
                value={fields.portrait}
                onChange={(e) => update({ portrait: e.target.value })}
                aria-invalid={errors.portrait ? true : undefined}
                aria-describedby={errors.portrait ? "preview-portrait-error" : "preview-portrait-hint"}
              />
              <p className="field-hint" id="preview-portrait-hint">
                An image on this site, such as /brand/portrait.jpg. Without one, the initials are shown.
              </p>
              <FieldError id="preview-portrait-error" message={errors.portrait} />
            </div>

            <button type="submit">Preview</button>
          </Form>

          <div className="preview-images" aria-live="polite">
            {hasErrors ? (
              <p className="form-status form-status-error">Correct the highlighted fields to see the previews.</p>
            ) : (
              <>
                {broken ? (
                  <p className="form-status form-status-error">
                    The preview could not be drawn. Check the portrait URL, or try again in a moment.
                  </p>
                ) : null}
                <PreviewFigure kind="poster" src={imageUrl("poster", shown)} alt={`Will Be Attending poster for ${label}`} onError={() => setBroken(true)} />
                <PreviewFigure kind="badge" src={imageUrl("badge", shown)} alt={`Supporter badge for ${label}`} onError={() => setBroken(true)} />
              </>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}

function PreviewFigure(props: { kind: "poster" | "badge"; src: string; alt: string; onError: () => void }) {
  return (
    <figure className="preview-figure">
      <img src={props.src} alt={props.alt} width={1080} height={1080} decoding="async" onError={props.onError} />
      <figcaption>
        {props.kind === "poster" ? "Poster" : "Badge"} · 1080 × 1080 PNG ·{" "}
        <a href={props.src} target="_blank" rel="noopener">
          open full size
        </a>
      </figcaption>
    </figure>
  );
}
