import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useHydrated } from "./form-parts";

export type CloseDialog = (e?: React.MouseEvent) => void;

type DialogLike = Pick<HTMLDialogElement, "open" | "close" | "isConnected">;

/**
 * What a URL-state dialog does when it is closed, as plain functions (so they can be tested
 * without a browser): `close` is the close links' click handler, the rest go on the <dialog>.
 */
export function dialogControls(opts: {
  dialog(): DialogLike | null;
  hydrated: boolean;
  /** Puts the address right once the dialog has closed. */
  onClose(): void;
  mounted(): boolean;
  /** Whether the pointer went down on the backdrop (kept across renders by the caller). */
  pressedBackdrop: { current: boolean };
}) {
  const close: CloseDialog = (e) => {
    const dialog = opts.dialog();
    if (!opts.hydrated || !dialog) return; // Without JavaScript the link itself goes to the page behind.
    e?.preventDefault();
    if (dialog.open) dialog.close();
    else opts.onClose();
  };
  type PointerLike = { target: unknown; currentTarget: unknown };
  return {
    close,
    onClose() {
      const dialog = opts.dialog();
      // A dialog taken away by a URL change (Back) must not navigate again, and a late close
      // event from before it was shown as a modal is not a close.
      if (!opts.mounted() || !dialog?.isConnected || dialog.open) return;
      opts.onClose();
    },
    onPointerDown(e: PointerLike) {
      opts.pressedBackdrop.current = e.target === e.currentTarget;
    },
    onClick(e: PointerLike) {
      // The dialog has no padding of its own: a click on it (pressed there too, not dragged
      // out of a field) is a click on the backdrop.
      if (opts.pressedBackdrop.current && e.target === e.currentTarget) close();
    },
  };
}

/**
 * The mechanics of a dialog that is URL state (`?item=`, `?bag=1`, `?tier=`): the server renders
 * it open, so it works as a page without JavaScript. A dialog opened once the page has hydrated
 * (a tap on an item, a tier) becomes a real modal. One that the page arrived with stays the open
 * dialog the reader has been using: the scripts may arrive while they choose a size or type their
 * name, and closing it to show it again as a modal would move their focus (and the letters they
 * type next) to its first control. It keeps its backdrop link, and Escape, a click on that
 * backdrop and the close links close it; after any close `onClose` fixes the address.
 */
export function useUrlDialog(onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  // False on the server and while hydrating: a dialog mounted then came open with the page.
  const [cameWithPage] = useState(() => !hydrated);
  const mounted = useRef(true);
  const pressedBackdrop = useRef(false);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Before the browser paints: the tap that opened it shows the modal in the same frame as the
  // dialog's contents, not a frame (and a passive effect's wait) later.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!hydrated || !dialog || dialog.open || cameWithPage) return;
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
  }, [hydrated, cameWithPage]);

  const controls = dialogControls({
    dialog: () => ref.current,
    hydrated,
    onClose,
    mounted: () => mounted.current,
    pressedBackdrop,
  });

  // A modal closes on Escape by itself; the dialog that came with the page is not a modal.
  const close = controls.close;
  useEffect(() => {
    if (!hydrated || !cameWithPage) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented && ref.current?.open) close();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [hydrated, cameWithPage, close]);

  return {
    ref,
    hydrated,
    close: controls.close,
    /** The dialog is the open (not modal) one the page arrived with: it keeps its backdrop link. */
    cameWithPage,
    dialogProps: {
      ref,
      // Never taken away by React: the browser's own close() clears it.
      open: hydrated && !cameWithPage ? undefined : true,
      onClose: controls.onClose,
      onPointerDown: controls.onPointerDown,
      onClick: controls.onClick,
    },
  };
}

type Props = {
  id?: string;
  className: string;
  style?: React.CSSProperties;
  labelledBy: string;
  /**
   * Drawn behind the dialog until it is a modal (JavaScript off, or not running yet): a link to
   * `closeHref`, so a click outside closes it there too. Leave it out for a dialog that reads as
   * part of the page then.
   */
  backdrop?: { className: string; label: string; closeHref: string };
  onClose(): void;
  children(close: CloseDialog): React.ReactNode;
};

/** A URL-state dialog (see useUrlDialog); `children` gets the close links' click handler. */
export function UrlDialog({ id, className, style, labelledBy, backdrop, onClose, children }: Props) {
  const { hydrated, close, cameWithPage, dialogProps } = useUrlDialog(onClose);
  return (
    <>
      {backdrop && (!hydrated || cameWithPage) ? (
        <a href={backdrop.closeHref} className={backdrop.className} tabIndex={-1} aria-label={backdrop.label} onClick={close} />
      ) : null}
      <dialog {...dialogProps} id={id} className={className} style={style} aria-labelledby={labelledBy}>
        {children(close)}
      </dialog>
    </>
  );
}
