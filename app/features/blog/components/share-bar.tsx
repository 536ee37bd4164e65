import { useRef, useState } from "react";
import { trackEvent } from "~/lib/track";

export const LINK_COPIED = "Link copied. Paste it anywhere to share this post.";

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (older browsers, plain http): the old select-and-copy way.
  }
  try {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  } catch {
    return false;
  }
}

type Props = { url: string; title: string; slug: string };

/**
 * Sharing a post: WhatsApp, X and Facebook links work without JavaScript; with it, the
 * device share sheet (falling back to copying; cancelling is silent) and Copy link. Those two
 * are hidden by CSS (`scripting: none`) when scripts are off.
 */
export function ShareBar({ url, title, slug }: Props) {
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const busy = useRef(false);
  const meta = { slug };
  const text = `${title}`;
  const links = [
    { name: "WhatsApp", event: "blog.share.whatsapp", href: `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}` },
    { name: "X", hidden: " (Twitter)", event: "blog.share.twitter", href: `https://twitter.com/intent/tweet?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}` },
    { name: "Facebook", event: "blog.share.facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}` },
  ];

  async function copy() {
    const ok = await copyText(url);
    setStatus(ok ? { ok, text: LINK_COPIED } : { ok, text: `Could not copy. The link is ${url}` });
    if (ok) trackEvent("blog.copy_link", meta);
  }

  async function share() {
    if (busy.current) return;
    busy.current = true;
    setStatus(null);
    try {
      if (typeof navigator.share === "function") {
        try {
          await navigator.share({ title, text, url });
          return;
        } catch (e) {
          if (e instanceof DOMException && e.name === "AbortError") return; // cancelled: silent
        }
      }
      await copy();
    } finally {
      busy.current = false;
    }
  }

  return (
    <div className="share-bar">
      <p className="share-bar-title" id={`share-${slug}`}>
        Share this post
      </p>
      <ul className="share-bar-row" aria-labelledby={`share-${slug}`}>
        {/* Rendered with the page (no shift when it wakes up); hidden where scripts are off. */}
        <li className="js-only">
          <button type="button" className="button-ghost button-small" onClick={share}>
            Share…
          </button>
        </li>
        <li className="js-only">
          <button type="button" className="button-ghost button-small" onClick={copy}>
            Copy link
          </button>
        </li>
        {links.map((l) => (
          <li key={l.name}>
            <a
              className="button button-ghost button-small"
              href={l.href}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => trackEvent(l.event, meta)}
            >
              {l.name}
              <span className="visually-hidden">
                {l.hidden ?? ""} (opens in a new tab)
              </span>
            </a>
          </li>
        ))}
      </ul>
      <p className={status ? `share-status ${status.ok ? "is-ok" : "is-error"}` : "share-status"} role="status" aria-live="polite">
        {status?.text}
      </p>
    </div>
  );
}
