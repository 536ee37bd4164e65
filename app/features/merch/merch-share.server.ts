import type { Db } from "~/lib/db/db.server";
import { renderShareNotFound, renderSharePage } from "~/lib/http/share-page.server";
import { absoluteUrl } from "~/lib/http/http.server";
import { site } from "~/lib/core/site";
import { formatMoney, type MerchItem } from "./merch";
import { listItems, loadCatalogue } from "./merch.server";

/** The file part of /share/merchandise/{slug}.html. */
export const SHARE_FILE = /^([a-z0-9-]{1,60})\.html$/;
export const DEFAULT_SHARE_IMAGE = "/brand/og-default.png";

export const merchSharePath = (slug: string) => `/share/merchandise/${slug}.html`;
export const merchItemPath = (slug: string) => `/merchandise?item=${encodeURIComponent(slug)}`;

/** The item a share file names, or null (a bad file name is never looked up). */
export async function findShareItem(db: Db, file: string | undefined): Promise<MerchItem | null> {
  const slug = SHARE_FILE.exec(file ?? "")?.[1];
  if (!slug) return null;
  const { items } = await loadCatalogue(db);
  return items.find((i) => i.slug === slug) ?? null;
}

/**
 * Share pages are drawn from the catalogue on each request, so 'Generate Share Files' has
 * nothing to write: every item in the catalogue has a page. This is the count it reports.
 */
export async function countShareableItems(db: Db): Promise<number> {
  return (await listItems(db)).filter((i) => SHARE_FILE.test(`${i.slug}.html`)).length;
}

const shareImage = (image: string) =>
  !image ? absoluteUrl(DEFAULT_SHARE_IMAGE) : /^https:\/\//i.test(image) ? image : absoluteUrl(image);

/** The small page /share/merchandise/{slug}.html answers: link-preview tags, then the store. */
export function merchSharePage(item: MerchItem): string {
  const target = merchItemPath(item.slug);
  const title = `${item.name} | ${site.name} merchandise`;
  const description =
    [item.description, item.impact].filter(Boolean).join(" ") ||
    `${item.name}, ${formatMoney(item.price, item.currency)}: every purchase funds the street outreach in ${site.city}.`;
  const image = shareImage(item.image);
  return renderSharePage({
    pageTitle: title,
    description,
    canonical: absoluteUrl(target),
    shareUrl: absoluteUrl(merchSharePath(item.slug)),
    image,
    imageAlt: item.name,
    ogType: "product",
    ogTitle: item.name,
    target,
    heading: item.name,
    lines: [`${formatMoney(item.price, item.currency)}${item.available ? "" : " · Restocking"}`],
    linkText: `See the ${item.name} in the ${site.name} store`,
  });
}

export function merchShareNotFoundPage(): string {
  return renderShareNotFound({
    title: "Item not found",
    message: "That item is not in the store any more.",
    linkHref: "/merchandise",
    linkText: "See the merchandise",
  });
}
