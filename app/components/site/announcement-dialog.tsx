import { ResponsiveImage } from "~/components/ui/responsive-image";
import { useEffect, useRef } from "react";
import { Link } from "react-router";

type Props = {
  title: string;
  text: string;
  poster: { src: string; width: number; height: number; alt: string };
  to: string;
  delayMs?: number;
};

/** How long a closed announcement stays away: a week, then it may remind once more. */
const QUIET_DAYS = 7;
const storageKey = (title: string) => `announcement-closed:${title}`;

function recentlyClosed(title: string) {
  try {
    const at = Number(window.localStorage.getItem(storageKey(title)));
    return Number.isFinite(at) && at > 0 && Date.now() - at < QUIET_DAYS * 86_400_000;
  } catch {
    return false; // storage blocked: show it, as before
  }
}

function rememberClosed(title: string) {
  try {
    window.localStorage.setItem(storageKey(title), String(Date.now()));
  } catch {
    // storage blocked: nothing to remember with
  }
}

/**
 * A native modal opened after load. The server renders it closed, so without JavaScript
 * nothing covers the page; showModal() gives focus trapping and Escape for free. Once closed
 * ('Maybe Later', Escape, the backdrop or 'View Event Details') it stays away for a week on
 * this browser (kept in the browser, so the cached page is the same for everyone).
 */
export function AnnouncementDialog({ title, text, poster, to, delayMs = 300 }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const leaving = useRef(false);
  useEffect(() => {
    leaving.current = false;
    const dialog = ref.current;
    if (!dialog || typeof dialog.showModal !== "function" || recentlyClosed(title)) return;
    const timer = window.setTimeout(() => {
      if (!dialog.open) dialog.showModal();
    }, delayMs);
    return () => {
      window.clearTimeout(timer);
      leaving.current = true; // the page is going away: that is not the visitor closing it
      if (dialog.open) dialog.close();
    };
  }, [delayMs, title]);
  // Remembered at once: the dialog's close event comes a task later, and a page left at that
  // moment (a reload, a tap on the link) would never hear it.
  const close = () => {
    rememberClosed(title);
    ref.current?.close();
  };
  return (
    <dialog
      ref={ref}
      className="announcement"
      aria-labelledby="announcement-title"
      // Escape (and any other way the browser closes it); the buttons and the backdrop remember in close().
      onCancel={() => rememberClosed(title)}
      onClose={() => {
        if (!leaving.current) rememberClosed(title);
      }}
      onClick={(e) => {
        // A click on the dialog element itself (not its content) is a click on the backdrop.
        if (e.target === e.currentTarget) close();
      }}
    >
      <div className="announcement-body">
        <ResponsiveImage src={poster.src} width={poster.width} height={poster.height} maxWidth={210} sizes="(min-width: 382px) 210px, 55vw" alt={poster.alt} />
        <div>
          <h2 id="announcement-title">{title}</h2>
          <p>{text}</p>
          <div className="actions">
            <Link to={to} className="button button-lamp" onClick={close}>
              View Event Details
            </Link>
            <button type="button" className="button-ghost" onClick={close} autoFocus>
              Maybe Later
            </button>
          </div>
        </div>
      </div>
    </dialog>
  );
}
