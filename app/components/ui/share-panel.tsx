import { useId, useLayoutEffect, useRef, useState } from "react";
import { useHydrated } from "./form-parts";
import { copyText, facebookShareUrl, openShareSheet, twitterShareUrl, whatsAppShareUrl } from "~/lib/browser/share";

export type ShareTarget = "whatsapp" | "twitter" | "facebook";
/** What a visitor did: followed a share link, copied the link, or used the share sheet. */
export type ShareAction = ShareTarget | "copy" | "native";

const TARGETS: Record<ShareTarget, { name: string; hidden?: string; href(url: string, text: string): string }> = {
  whatsapp: { name: "WhatsApp", href: (url, text) => whatsAppShareUrl(`${text} ${url}`) },
  twitter: { name: "X", hidden: " (Twitter)", href: twitterShareUrl },
  facebook: { name: "Facebook", href: (url) => facebookShareUrl(url) },
};

type Props = {
  /** The panel's class; its title and row take `-title` and `-row` after it. */
  className: string;
  heading: string;
  url: string;
  /** The share sheet's title and the text sent with the link. */
  title: string;
  text: string;
  targets: ShareTarget[];
  /** The status once the link is copied. */
  copiedText: string;
  onShare?(action: ShareAction): void;
};

/**
 * A page's share links: WhatsApp, X or Facebook links work without JavaScript; with it, the
 * device share sheet (falling back to copying; cancelling is silent) and Copy link. Those two
 * are rendered with the page (no shift when it wakes up) and hidden by CSS (`.js-only`,
 * `scripting: none`, and in Lite mode) when scripts are off. Before the page's scripts start
 * they are not dead: a few lines of the page's boot script (app/lib/http/first-paint.server.ts,
 * `SHARE_BEFORE_START`) answer their tap from the `data-share-*` attributes, show the result
 * through the status's `data-early` attribute, and leave the panel to this component once it is
 * marked `data-ready`.
 */
export function SharePanel({ className, heading, url, title, text, targets, copiedText, onShare }: Props) {
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const busy = useRef(false);
  // The copy fallback's helper field goes in here: inside a modal dialog the page is inert.
  const box = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const hydrated = useHydrated();
  const statusRef = useRef<HTMLParagraphElement>(null);

  // A copy made before the scripts arrived: its message becomes this component's status.
  useLayoutEffect(() => {
    const early = statusRef.current?.getAttribute("data-early");
    if (!early) return;
    statusRef.current!.removeAttribute("data-early");
    setStatus(early === "ok" ? { ok: true, text: copiedText } : { ok: false, text: `Could not copy. The link is ${url}` });
  }, []);

  async function copy() {
    const ok = (await copyText(url, box.current)) !== false;
    setStatus(ok ? { ok, text: copiedText } : { ok, text: `Could not copy. The link is ${url}` });
    if (ok) onShare?.("copy");
  }

  async function share() {
    if (busy.current) return;
    busy.current = true;
    setStatus(null);
    try {
      const sheet = await openShareSheet({ title, text, url });
      if (sheet === "shared") onShare?.("native");
      else if (sheet === "unavailable") await copy();
    } finally {
      busy.current = false;
    }
  }

  return (
    <div
      className={className}
      ref={box}
      data-share-url={url}
      data-share-title={title}
      data-share-text={text}
      data-ready={hydrated ? "" : undefined}
    >
      <p className={`${className}-title`} id={headingId}>
        {heading}
      </p>
      <ul className={`${className}-row`} aria-labelledby={headingId}>
        <li className="js-only">
          <button type="button" className="button-ghost button-small" onClick={share} data-share="sheet">
            Share…
          </button>
        </li>
        <li className="js-only">
          <button type="button" className="button-ghost button-small" onClick={copy} data-share="copy">
            Copy link
          </button>
        </li>
        {targets.map((target) => {
          const t = TARGETS[target];
          return (
            <li key={target}>
              <a
                className="button button-ghost button-small"
                href={t.href(url, text)}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => onShare?.(target)}
              >
                {t.name}
                <span className="visually-hidden">{t.hidden ?? ""} (opens in a new tab)</span>
              </a>
            </li>
          );
        })}
      </ul>
      <p
        ref={statusRef}
        className={status ? `share-status ${status.ok ? "is-ok" : "is-error"}` : "share-status"}
        role="status"
        aria-live="polite"
        data-ok={copiedText}
      >
        {status?.text}
      </p>
    </div>
  );
}
