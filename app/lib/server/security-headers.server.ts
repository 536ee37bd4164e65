import type { EntryContext } from "react-router";

/**
 * The only third parties a page may add to its policy, and only where its loader asks
 * (`csp` in the deepest route's loader data): a blog post's embedded LinkedIn article, and
 * the YouTube player of a post with background audio. Anything else asked for is dropped.
 */
const THIRD_PARTIES = {
  scriptSrc: ["https://www.youtube.com", "https://s.ytimg.com"],
  // A post's own video frames: YouTube without cookies, Vimeo with do-not-track.
  frameSrc: ["https://www.linkedin.com", "https://www.youtube.com", "https://www.youtube-nocookie.com", "https://player.vimeo.com"],
} as const;

export type CspSources = { scriptSrc?: readonly string[]; frameSrc?: readonly string[] };

const allowed = (kind: keyof typeof THIRD_PARTIES, asked: readonly string[] | undefined) =>
  [...new Set(asked ?? [])].filter((s) => (THIRD_PARTIES[kind] as readonly string[]).includes(s));

/** The extra sources the deepest matched route's loader asked for (none on error pages). */
export function routeCspSources(context: EntryContext): CspSources {
  const deepest = context.staticHandlerContext.matches.at(-1);
  if (!deepest || context.staticHandlerContext.errors) return {};
  const data = context.staticHandlerContext.loaderData[deepest.route.id] as { csp?: CspSources } | undefined;
  return data?.csp ?? {};
}

/**
 * Which inline scripts a document may run: those carrying this response's nonce, or (for pages
 * sent byte-identical to every visitor from the page cache) those with these hashes.
 */
export type InlineScripts = { nonce: string } | { hashes: readonly string[] };

/**
 * The enforced policy for HTML documents: scripts only from this site, plus the inline scripts
 * `inline` allows. `null` is for HTML that runs no script at all (the share pages): then no
 * script may run.
 */
export function contentSecurityPolicy(inline: InlineScripts | null, extra: CspSources = {}) {
  const scripts = allowed("scriptSrc", extra.scriptSrc);
  const frames = allowed("frameSrc", extra.frameSrc);
  const inlineSources = inline === null ? [] : "nonce" in inline ? [`'nonce-${inline.nonce}'`] : inline.hashes;
  return [
    "default-src 'self'",
    inline === null ? "script-src 'none'" : ["script-src 'self'", ...inlineSources, ...scripts].join(" "),
    // Inline style attributes (tier colours, progress bars) need this; no inline scripts do.
    // Cached pages carry their stylesheets in <style> elements (app/lib/http/first-paint.server.ts).
    "style-src 'self' 'unsafe-inline'",
    // https images: covers and in-post pictures staff link to (images cannot run code).
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    "connect-src 'self'",
    ["frame-src 'self'", ...frames].join(" "),
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Headers for every response the server sends, documents and files alike. */
export function baseSecurityHeaders(https: boolean): Record<string, string> {
  const h: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
  };
  if (https) h["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return h;
}
