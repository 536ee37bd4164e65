import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/components/ui/form-parts";
import { trackEvent } from "~/lib/track";
import { formatMoney, MERCH_MESSAGES, type MerchItem } from "../merch";

async function copyText(text: string, host: Element | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (older browsers, plain http): the old select-and-copy way.
  }
  try {
    // Inside a modal dialog the rest of the page is inert, so the helper lives in the dialog.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    (host ?? document.body).appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  } catch {
    return false;
  }
}

/**
 * Sharing an item's share page: WhatsApp and X links work without JavaScript; with it, the
 * device share sheet (where there is one) and copying the link.
 */
export function ShareLinks({ item, url }: { item: MerchItem; url: string }) {
  const hydrated = useHydrated();
  const [canShare, setCanShare] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => setCanShare(typeof navigator.share === "function"), []);

  const text = `${item.name} (${formatMoney(item.price, item.currency)}): every purchase funds street outreach in Nairobi.`;
  const whatsapp = `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}`;
  const twitter = `https://twitter.com/intent/tweet?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`;
  const meta = { slug: item.slug };

  async function copy() {
    const ok = await copyText(url, box.current);
    setStatus(ok ? { ok, text: MERCH_MESSAGES.shareCopied } : { ok, text: `Could not copy. The link is ${url}` });
    if (ok) trackEvent("merch.share.copy", meta);
  }

  async function share() {
    setStatus(null);
    try {
      await navigator.share({ title: item.name, text, url });
      trackEvent("merch.share.native", meta);
    } catch (e) {
      if (e instanceof DOMException && e.name === "AbortError") return; // cancelled: silent
      await copy();
    }
  }

  return (
    <div className="share-links" ref={box}>
      <p className="share-links-title">Share this item</p>
      <div className="share-links-row">
        <a
          className="button button-ghost button-small"
          href={whatsapp}
          target="_blank"
          rel="noopener noreferrer"
          onClick={() => trackEvent("merch.share.whatsapp", meta)}
        >
          WhatsApp<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
        <a
          className="button button-ghost button-small"
          href={twitter}
          target="_blank"
          rel="noopener noreferrer"
          onClick={() => trackEvent("merch.share.twitter", meta)}
        >
          X<span className="visually-hidden"> (Twitter, opens in a new tab)</span>
        </a>
        {hydrated && canShare ? (
          <button type="button" className="button-ghost button-small" onClick={share}>
            Share…
          </button>
        ) : null}
        {hydrated ? (
          <button type="button" className="button-ghost button-small" onClick={copy}>
            Copy link
          </button>
        ) : null}
      </div>
      <p className={status ? `share-status ${status.ok ? "is-ok" : "is-error"}` : "share-status"} role="status" aria-live="polite">
        {status?.text}
      </p>
    </div>
  );
}
