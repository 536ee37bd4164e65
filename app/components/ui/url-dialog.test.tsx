import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { dialogControls, UrlDialog } from "./url-dialog";

function setup({ hydrated = true, open = true, connected = true, mounted = true } = {}) {
  const dialog = {
    open,
    isConnected: connected,
    close: vi.fn(() => {
      dialog.open = false;
    }),
  };
  const onClose = vi.fn();
  const state = { mounted };
  const controls = dialogControls({
    dialog: () => dialog,
    hydrated,
    onClose,
    mounted: () => state.mounted,
    pressedBackdrop: { current: false },
  });
  const click = () => {
    const e = { preventDefault: vi.fn() };
    controls.close(e as unknown as React.MouseEvent);
    return e.preventDefault;
  };
  return { dialog, onClose, state, controls, click };
}

describe("dialogControls", () => {
  it("leaves a close link to the browser until the page has hydrated", () => {
    const { dialog, onClose, click } = setup({ hydrated: false });
    expect(click()).not.toHaveBeenCalled();
    expect(dialog.close).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it("closes the modal in place; the close event then fixes the address once", () => {
    const { dialog, onClose, controls, click } = setup();
    expect(click()).toHaveBeenCalled();
    expect(dialog.close).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
    controls.onClose();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("fixes the address at once when the dialog is not open", () => {
    const { dialog, onClose, click } = setup({ open: false });
    click();
    expect(dialog.close).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("ignores a close event after a URL change took the dialog away, or while it is open again", () => {
    const gone = setup({ open: false, connected: false });
    gone.controls.onClose();
    const unmounted = setup({ open: false });
    unmounted.state.mounted = false;
    unmounted.controls.onClose();
    const reopened = setup({ open: true });
    reopened.controls.onClose();
    expect([gone.onClose, unmounted.onClose, reopened.onClose].map((f) => f.mock.calls.length)).toEqual([0, 0, 0]);
  });

  it("a click on the backdrop closes; a drag that ends there does not", () => {
    const { dialog, controls } = setup();
    const self = {};
    controls.onPointerDown({ target: {}, currentTarget: self });
    controls.onClick({ target: self, currentTarget: self });
    expect(dialog.close).not.toHaveBeenCalled();
    controls.onPointerDown({ target: self, currentTarget: self });
    controls.onClick({ target: {}, currentTarget: self });
    expect(dialog.close).not.toHaveBeenCalled();
    controls.onClick({ target: self, currentTarget: self });
    expect(dialog.close).toHaveBeenCalledTimes(1);
  });
});

describe("UrlDialog, as the server renders it", () => {
  it("is an open dialog with a backdrop link to the page behind", () => {
    const html = renderToStaticMarkup(
      <UrlDialog
        id="bag"
        className="store-dialog"
        labelledBy="bag-title"
        backdrop={{ className: "store-backdrop", label: "Close", closeHref: "/merchandise" }}
        onClose={() => {}}
      >
        {() => <h2 id="bag-title">Your bag</h2>}
      </UrlDialog>,
    );
    expect(html).toBe(
      `<a href="/merchandise" class="store-backdrop" tabindex="-1" aria-label="Close"></a>` +
        `<dialog open="" id="bag" class="store-dialog" aria-labelledby="bag-title"><h2 id="bag-title">Your bag</h2></dialog>`,
    );
  });

  it("draws no backdrop when asked for none", () => {
    const html = renderToStaticMarkup(
      <UrlDialog className="badge-dialog" labelledBy="t" onClose={() => {}}>
        {() => "x"}
      </UrlDialog>,
    );
    expect(html).toBe(`<dialog open="" class="badge-dialog" aria-labelledby="t">x</dialog>`);
  });
});
