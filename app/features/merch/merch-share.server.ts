import type { Db } from "~/lib/db.server";
import { escapeHtml as e } from "~/lib/email-layout";
import { absoluteUrl } from "~/lib/http.server";
import { site } from "~/lib/site";
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
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<meta name="description" content="${e(description)}">
<link rel="canonical" href="${e(absoluteUrl(target))}">
<meta property="og:type" content="product">
<meta property="og:site_name" content="${e(site.name)}">
<meta property="og:title" content="${e(item.name)}">
<meta property="og:description" content="${e(description)}">
<meta property="og:image" content="${e(image)}">
<meta property="og:image:alt" content="${e(item.name)}">
<meta property="og:url" content="${e(absoluteUrl(merchSharePath(item.slug)))}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${e(item.name)}">
<meta name="twitter:description" content="${e(description)}">
<meta name="twitter:image" content="${e(image)}">
<meta http-equiv="refresh" content="${e(`0; url=${target}`)}">
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:36rem;padding:0 1rem;color:#1c2430}a{color:#123b5d}</style>
</head>
<body>
<h1>${e(item.name)}</h1>
<p>${e(formatMoney(item.price, item.currency))}${item.available ? "" : " · Restocking"}</p>
<p><a href="${e(target)}">See the ${e(item.name)} in the ${e(site.name)} store</a></p>
</body>
</html>
`;
}

export function merchShareNotFoundPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Item not found | ${e(site.name)}</title>
</head>
<body>
<h1>Item not found</h1>
<p>That item is not in the store any more. <a href="/merchandise">See the merchandise</a>.</p>
</body>
</html>
`;
}
