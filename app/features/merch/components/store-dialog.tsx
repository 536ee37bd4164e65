import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { useHydrated } from "~/components/ui/form-parts";
import { ENHANCED_FIELD } from "./store-links";

export type CloseDialog = (e?: React.MouseEvent) => void;

type Props = {
  id: string;
  title: React.ReactNode;
  /** Where the close link goes: the store without this dialog's query parameter. */
  closeHref: string;
  /** Called once the dialog has closed (Escape, the backdrop, the close button). */
  onClose(): void;
  className?: string;
  children(close: CloseDialog): React.ReactNode;
};

/**
 * The store's URL-state dialogs. The server renders the dialog open as a fixed overlay with
 * a link for a backdrop, so it works without JavaScript; once hydrated it is a real modal
 * (Escape, backdrop click and the close button all close it, then `onClose` fixes the URL).
 */
export function StoreDialog({ id, title, closeHref, onClose, className, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  const pressedBackdrop = useRef(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    const dialog = ref.current;
    if (!hydrated || !dialog || dialog.open) return;
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
  }, [hydrated]);

  const close: CloseDialog = (e) => {
    const dialog = ref.current;
    if (!hydrated || !dialog) return; // Without JavaScript the link goes to closeHref.
    e?.preventDefault();
    if (dialog.open) dialog.close();
    else onClose();
  };

  return (
    <>
      {hydrated ? null : <a href={closeHref} className="store-backdrop" tabIndex={-1} aria-label="Close" />}
      <dialog
        ref={ref}
        id={id}
        className={`store-dialog${className ? ` ${className}` : ""}`}
        aria-labelledby={`${id}-title`}
        open={hydrated ? undefined : true}
        onClose={() => {
          // A dialog taken away by a URL change (Back) must not navigate again.
          if (mounted.current && ref.current?.isConnected) onClose();
        }}
        onPointerDown={(e) => {
          pressedBackdrop.current = e.target === e.currentTarget;
        }}
        onClick={(e) => {
          // The dialog has no padding of its own: a click on it is a click on the backdrop.
          if (pressedBackdrop.current && e.target === e.currentTarget) close();
        }}
      >
        <div className="store-dialog-head">
          <h2 id={`${id}-title`}>{title}</h2>
          <Link to={closeHref} replace preventScrollReset className="store-dialog-close" onClick={close} aria-label="Close">
            <span aria-hidden="true">×</span>
          </Link>
        </div>
        <div className="store-dialog-body">{children(close)}</div>
      </dialog>
    </>
  );
}

/** Marks a form as sent by the enhanced page (see ENHANCED_FIELD). */
export function EnhancedFlag() {
  const hydrated = useHydrated();
  return hydrated ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null;
}
