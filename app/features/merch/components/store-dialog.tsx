import { Link } from "react-router";
import { useHydrated } from "~/components/ui/form-parts";
import { UrlDialog, type CloseDialog } from "~/components/ui/url-dialog";
import { ENHANCED_FIELD } from "./store-links";

export type { CloseDialog };

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
  return (
    <UrlDialog
      id={id}
      className={`store-dialog${className ? ` ${className}` : ""}`}
      labelledBy={`${id}-title`}
      backdrop={{ className: "store-backdrop", label: "Close", closeHref }}
      onClose={onClose}
    >
      {(close) => (
        <>
          <div className="store-dialog-head">
            <h2 id={`${id}-title`}>{title}</h2>
            <Link to={closeHref} replace preventScrollReset className="store-dialog-close" onClick={close} aria-label="Close">
              <span aria-hidden="true">×</span>
            </Link>
          </div>
          <div className="store-dialog-body">{children(close)}</div>
        </>
      )}
    </UrlDialog>
  );
}

/** Marks a form as sent by the enhanced page (see ENHANCED_FIELD). */
export function EnhancedFlag() {
  const hydrated = useHydrated();
  return hydrated ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null;
}
