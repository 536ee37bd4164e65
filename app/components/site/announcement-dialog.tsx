import { useEffect, useRef } from "react";
import { Link } from "react-router";

type Props = {
  title: string;
  text: string;
  poster: { src: string; width: number; height: number; alt: string };
  to: string;
  delayMs?: number;
};

/**
 * A native modal opened after load. The server renders it closed, so without JavaScript
 * nothing covers the page; showModal() gives focus trapping and Escape for free.
 */
export function AnnouncementDialog({ title, text, poster, to, delayMs = 300 }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || typeof dialog.showModal !== "function") return;
    const timer = window.setTimeout(() => {
      if (!dialog.open) dialog.showModal();
    }, delayMs);
    return () => {
      window.clearTimeout(timer);
      if (dialog.open) dialog.close();
    };
  }, [delayMs]);
  const close = () => ref.current?.close();
  return (
    <dialog
      ref={ref}
      className="announcement"
      aria-labelledby="announcement-title"
      onClick={(e) => {
        // A click on the dialog element itself (not its content) is a click on the backdrop.
        if (e.target === e.currentTarget) close();
      }}
    >
      <div className="announcement-body">
        <img src={poster.src} width={poster.width} height={poster.height} alt={poster.alt} loading="lazy" decoding="async" />
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
