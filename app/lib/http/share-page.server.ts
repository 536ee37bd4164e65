import { escapeHtml as e } from "../mail/email-layout";
import { contentSecurityPolicy } from "../server/security-headers.server";
import { site } from "../core/site";

/**
 * The small HTML page behind a share link (/share/...): link-preview tags for chat apps and
 * social sites, then a redirect to the page on this site. Every value is escaped here.
 */
export type SharePage = {
  pageTitle: string;
  description: string;
  /** Absolute URLs. */
  canonical: string;
  shareUrl: string;
  image: string;
  imageAlt: string;
  imageSize?: { width: number; height: number };
  ogType: "website" | "article" | "product";
  ogTitle: string;
  extraMeta?: { property: string; content: string }[];
  /** Site-relative: where people go on. */
  target: string;
  heading: string;
  /** Plain-text paragraphs under the heading. */
  lines: string[];
  linkText: string;
};

export function renderSharePage(p: SharePage): string {
  const meta = [
    ["og:type", p.ogType],
    ["og:site_name", site.name],
    ["og:title", p.ogTitle],
    ["og:description", p.description],
    ["og:image", p.image],
    ...(p.imageSize ? [["og:image:width", String(p.imageSize.width)], ["og:image:height", String(p.imageSize.height)]] : []),
    ["og:image:alt", p.imageAlt],
    ["og:url", p.shareUrl],
    ...(p.extraMeta ?? []).map((m) => [m.property, m.content]),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(p.pageTitle)}</title>
<meta name="description" content="${e(p.description)}">
<link rel="canonical" href="${e(p.canonical)}">
${meta.map(([k, v]) => `<meta property="${e(k!)}" content="${e(v!)}">`).join("\n")}
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${e(p.ogTitle)}">
<meta name="twitter:description" content="${e(p.description)}">
<meta name="twitter:image" content="${e(p.image)}">
<meta http-equiv="refresh" content="${e(`0; url=${p.target}`)}">
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:36rem;padding:0 1rem;color:#1c2430}a{color:#123b5d}</style>
</head>
<body>
<h1>${e(p.heading)}</h1>
${p.lines.map((l) => `<p>${e(l)}</p>\n`).join("")}<p><a href="${e(p.target)}">${e(p.linkText)}</a></p>
</body>
</html>
`;
}

/** The 404 page of a share link whose item is gone. */
export function renderShareNotFound(p: { title: string; message: string; linkHref: string; linkText: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${e(p.title)} | ${e(site.name)}</title>
</head>
<body>
<h1>${e(p.title)}</h1>
<p>${e(p.message)} <a href="${e(p.linkHref)}">${e(p.linkText)}</a>.</p>
</body>
</html>
`;
}

/**
 * A share page (or its 404) as the answer of a /share/... resource route, with the site's
 * Content-Security-Policy like every other document (these run no script, so none may run).
 */
export function sharePageResponse(html: string, found: boolean): Response {
  return new Response(html, {
    status: found ? 200 : 404,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": found ? "public, max-age=300" : "no-store",
      "Content-Security-Policy": contentSecurityPolicy(null),
    },
  });
}
