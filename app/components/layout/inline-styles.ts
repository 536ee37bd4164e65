import { useEffect } from "react";
import { useLocation } from "react-router";

/**
 * A cached page carries its stylesheets inline (app/lib/http/first-paint.server.ts), each beside the
 * disabled link React rendered for it. After a client-side navigation React has removed the
 * links of the pages left behind; their inline copies go too, so one page's styles never stay
 * on the next. The new page's own stylesheets load as links, as they always did.
 */
export function useInlineStylesCleanup() {
  const { pathname } = useLocation();
  useEffect(() => {
    for (const style of document.querySelectorAll<HTMLStyleElement>("style[data-inline-href]")) {
      const href = style.dataset.inlineHref ?? "";
      const links = document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]');
      if (![...links].some((l) => l.getAttribute("href") === href)) style.remove();
    }
  }, [pathname]);
}
