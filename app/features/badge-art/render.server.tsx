import { renderAsync } from "@resvg/resvg-js";
import type { ReactNode } from "react";
import satori from "satori";
import sharp, { type PngOptions } from "sharp";
import { BadgeTemplate, type KitTier, type TemplateInput } from "./badge-template";
import { kitFonts } from "./fonts.server";
import { displayMeasure } from "./measure.server";
import { svgDataUri } from "./mark";
import { SIZE } from "./parts";
import { PosterTemplate } from "./poster-template";
import { qrSvg } from "./qr.server";
import { TeamBadgeTemplate, type TeamBadgeInput } from "./team-badge-template";
import { CARD_HEIGHT, CARD_WIDTH, ShareCardTemplate, type ShareCardInput } from "./share-card-template";
import { site } from "~/lib/core/site";
import { cleanText, formatIssuedDate, initialsOf } from "./text";

/**
 * Badge pictures, drawn on the server: the supporter badge and 'Will Be Attending' poster, the
 * team badge, and a badge's link-preview card. They draw what they are given (a tier's words and
 * colours, the evening's text); which tier and which evening is the caller's business.
 */

/** One supporter's badge and poster. */
export type KitInput = {
  tier: KitTier;
  name: string;
  /** A square image (any format sharp reads); it is cropped round here. */
  portraitPng?: Buffer | null;
  shareUrl: string;
  reference?: string;
  /** The evening printed on the badge and poster: its title, its date in words, its venue. */
  event: { title: string; dateText: string; venue: string };
};

export type TeamBadge = TeamBadgeInput;

/** The portrait's largest drawn size; it is scaled down to this once, not per image. */
const PORTRAIT_PX = 300;

/** The words a template is given (its props as JSON: names, titles, venues), to choose its fonts by. */
const textOf = (node: ReactNode) => JSON.stringify((node as { props?: unknown } | null)?.props ?? "");

/**
 * JSX -> SVG (satori, on this thread) -> pixels (resvg, on a libuv worker) -> PNG (sharp, also
 * off this thread). Only the layout step occupies the event loop.
 */
async function toPng(node: ReactNode, size = { width: SIZE, height: SIZE }, encoding: PngOptions = { compressionLevel: 6, adaptiveFiltering: false }): Promise<Buffer> {
  const svg = await satori(node, { ...size, fonts: await kitFonts(textOf(node)) });
  const image = await renderAsync(svg, {
    fitTo: { mode: "original" },
    font: { loadSystemFonts: false },
  });
  // Every template paints an opaque background, so resvg's premultiplied RGBA is plain RGBA.
  return sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 4 } })
    .png(encoding)
    .toBuffer();
}

/** The portrait, small, as a data URI; an unreadable one falls back to the initials. */
async function portraitUri(png: Buffer | null | undefined): Promise<string | null> {
  if (!png || png.length === 0) return null;
  try {
    const small = await sharp(png, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(PORTRAIT_PX, PORTRAIT_PX, { fit: "cover" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 90 })
      .toBuffer();
    return `data:image/jpeg;base64,${small.toString("base64")}`;
  } catch (e) {
    console.warn("[kit] portrait unreadable, drawing initials instead:", (e as Error).message);
    return null;
  }
}

async function prepare(input: KitInput): Promise<TemplateInput> {
  const name = cleanText(input.name) || "Supporter";
  const [portrait, measure] = await Promise.all([portraitUri(input.portraitPng), displayMeasure()]);
  return {
    tier: input.tier,
    name,
    initials: initialsOf(name),
    portrait,
    reference: input.reference ? cleanText(input.reference, 24) : undefined,
    event: { title: cleanText(input.event.title, 120), dateText: input.event.dateText, venue: cleanText(input.event.venue, 40) },
    measure,
  };
}

function qrFor(shareUrl: string) {
  const { svg, size } = qrSvg(shareUrl);
  return { src: svgDataUri(svg), size };
}

export async function renderBadgePng(input: KitInput): Promise<Buffer> {
  return toPng(<BadgeTemplate {...await prepare(input)} />);
}

export async function renderPosterPng(input: KitInput): Promise<Buffer> {
  return toPng(<PosterTemplate {...await prepare(input)} qr={qrFor(input.shareUrl)} />);
}

/**
 * Badge and poster for one order. Call it outside any database transaction. The badge, which is
 * kept and mailed as a PNG (its Open Badges assertion is baked into it), comes as a dithered
 * palette PNG: half the bytes of a full-colour one, the same picture to the eye.
 */
export async function renderKit(input: KitInput): Promise<{ badge: Buffer; poster: Buffer }> {
  const prepared = await prepare(input);
  const [badge, poster] = await Promise.all([
    toPng(<BadgeTemplate {...prepared} />, undefined, { palette: true, quality: 100, compressionLevel: 9 }),
    toPng(<PosterTemplate {...prepared} qr={qrFor(input.shareUrl)} />),
  ]);
  return { badge, poster };
}

export async function renderTeamBadgePng(badge: TeamBadge): Promise<Buffer> {
  return toPng(
    <TeamBadgeTemplate
      id={cleanText(badge.id, 32)}
      title={cleanText(badge.title, 80) || "Team badge"}
      subtitle={cleanText(badge.subtitle, 160)}
      ownerName={cleanText(badge.ownerName) || "Team member"}
      issuedAt={badge.issuedAt}
      issuedText={formatIssuedDate(badge.issuedAt)}
      category={cleanText(badge.category, 24)}
      earned={badge.earned}
      measure={await displayMeasure()}
    />,
  );
}

/**
 * A badge's 1200x630 link-preview card. The square picture (if any) is scaled down and sent as
 * JPEG inside the layout, and the card is a palette PNG, to keep it well under 300 kB.
 */
export async function renderShareCardPng(card: ShareCardInput): Promise<Buffer> {
  const picture = card.picture
    ? `data:image/jpeg;base64,${(await sharp(Buffer.from(card.picture.split(",")[1] ?? "", "base64")).resize(500, 500).flatten({ background: "#ffffff" }).jpeg({ quality: 85 }).toBuffer()).toString("base64")}`
    : null;
  const png = await toPng(
    <ShareCardTemplate {...card} title={cleanText(card.title, 80)} holder={cleanText(card.holder, 60)} line={cleanText(card.line, 80)} picture={picture} issuer={site.name} />,
    { width: CARD_WIDTH, height: CARD_HEIGHT },
  );
  return sharp(png).png({ palette: true, quality: 90, compressionLevel: 9 }).toBuffer();
}

/**
 * Reads and parses the fonts, measures the display face and lays `sample` out once, so the first
 * real render does not pay for it (about 1-2 s on a small machine). Only the layout: the pixels
 * and the PNG (a few MB of buffers for a moment) wait for a real render. Safe to call twice.
 */
export async function warmRenderer(sample: KitInput): Promise<void> {
  await Promise.all([kitFonts(), displayMeasure()]);
  await satori(<BadgeTemplate {...await prepare(sample)} />, { width: SIZE, height: SIZE, fonts: await kitFonts() });
}
