import { site } from "../core/site";

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** One simple, accessible layout for every message the site sends; text and HTML alike. */
export function renderEmail(opts: {
  subject: string;
  heading: string;
  paragraphs: string[];
  cta?: { label: string; url: string };
  /** A picture attached inline (its attachment's `cid`), shown after the paragraphs. */
  image?: { cid: string; alt: string; size: number };
  footer?: string;
  footerLink?: { label: string; url: string };
}) {
  const text = [
    opts.heading,
    "",
    ...opts.paragraphs.flatMap((p) => [p, ""]),
    ...(opts.cta ? [`${opts.cta.label}: ${opts.cta.url}`, ""] : []),
    "—",
    site.name,
    ...(opts.footer ? [opts.footer] : []),
  ].join("\n");
  // Fluid: full width on a phone, at most 560 px on a wide screen (no fixed-width table).
  const html = `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin:0;background:#f5f1ea;font-family:Arial,Helvetica,sans-serif;color:#1c2430">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:12px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="width:100%;max-width:560px;background:#ffffff;border-radius:12px">
<tr><td style="padding:16px 20px;background:#123b5d;border-radius:12px 12px 0 0;color:#ffffff;font-size:18px;font-weight:bold">${escapeHtml(site.name)}</td></tr>
<tr><td style="padding:20px;word-wrap:break-word;overflow-wrap:anywhere">
<h1 style="margin:0 0 16px;font-size:22px;color:#123b5d">${escapeHtml(opts.heading)}</h1>
${opts.paragraphs.map((p) => `<p style="margin:0 0 14px;line-height:1.5">${escapeHtml(p)}</p>`).join("\n")}
${opts.image ? `<p style="margin:18px 0;text-align:center"><img src="cid:${escapeHtml(opts.image.cid)}" alt="${escapeHtml(opts.image.alt)}" width="${opts.image.size}" height="${opts.image.size}" style="display:inline-block;width:${opts.image.size}px;max-width:100%;height:auto;border:0"></p>` : ""}
${opts.cta ? `<p style="margin:22px 0"><a href="${escapeHtml(opts.cta.url)}" style="display:inline-block;background:#e0892b;color:#1c2430;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">${escapeHtml(opts.cta.label)}</a></p>` : ""}
</td></tr>
<tr><td style="padding:14px 20px;color:#5b6470;font-size:12px;border-top:1px solid #eee">${escapeHtml(site.name)} · ${escapeHtml(site.city)}${opts.footerLink ? ` · <a href="${escapeHtml(opts.footerLink.url)}" style="color:#5b6470">${escapeHtml(opts.footerLink.label)}</a>` : ""}</td></tr>
</table></td></tr></table></body></html>`;
  return { subject: opts.subject, text, html };
}
