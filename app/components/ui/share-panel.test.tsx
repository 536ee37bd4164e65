import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SharePanel } from "./share-panel";

const render = (targets: Array<"whatsapp" | "twitter" | "facebook">) =>
  renderToStaticMarkup(
    <SharePanel
      className="share-links"
      heading="Share this item"
      url="https://site.test/share/merchandise/tee.html"
      title="Tee"
      text="Tee (KES 1,500)"
      targets={targets}
      copiedText="Copied"
    />,
  );

describe("SharePanel, as the server renders it", () => {
  it("has a link per target with the address and text, and names the list by its heading", () => {
    const html = render(["whatsapp", "twitter"]);
    expect(html).toContain(`href="https://wa.me/?text=Tee%20(KES%201%2C500)%20https%3A%2F%2Fsite.test%2Fshare%2Fmerchandise%2Ftee.html"`);
    expect(html).toContain(`href="https://twitter.com/intent/tweet?url=https%3A%2F%2Fsite.test%2Fshare%2Fmerchandise%2Ftee.html&amp;text=Tee%20(KES%201%2C500)"`);
    expect(html).not.toContain("facebook.com");
    expect(html).toContain(`X<span class="visually-hidden"> (Twitter) (opens in a new tab)</span>`);
    const id = /<p class="share-links-title" id="([^"]+)">Share this item<\/p>/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`<ul class="share-links-row" aria-labelledby="${id}">`);
  });

  it("renders the script-only buttons marked to hide without script, and an empty status", () => {
    const html = render(["facebook"]);
    expect(html.match(/<li class="js-only"><button type="button"[^>]*>(Share…|Copy link)<\/button><\/li>/g)).toHaveLength(2);
    expect(html).toContain(`href="https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fsite.test%2Fshare%2Fmerchandise%2Ftee.html"`);
    expect(html).toContain(`<p class="share-status" role="status" aria-live="polite" data-ok="Copied"></p>`);
  });

  it("carries what the boot script needs to answer a tap before the scripts start, and is not yet marked ready", () => {
    const html = render(["whatsapp"]);
    expect(html).toContain(`data-share-url="https://site.test/share/merchandise/tee.html" data-share-title="Tee" data-share-text="Tee (KES 1,500)"`);
    expect(html).not.toContain("data-ready");
    expect(html).toContain(`data-share="sheet">Share…</button>`);
    expect(html).toContain(`data-share="copy">Copy link</button>`);
  });
});
