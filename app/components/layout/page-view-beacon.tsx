import { useEffect, useRef } from "react";
import { useLocation, useMatches } from "react-router";
import type { PageHandle } from "~/features/analytics/page-view";
import { sendTrack } from "~/lib/browser/track";

/**
 * The server counts the first page of a visit when it sends the document; this reports
 * the pages reached by in-app navigation afterwards, once each.
 */
export function PageViewBeacon() {
  const location = useLocation();
  const matches = useMatches();
  const previous = useRef<string | null>(null);
  // What the last page was recorded as (a private page's stand-in path, not its address).
  const recorded = useRef<string>("");
  useEffect(() => {
    const path = location.pathname;
    const privatePath = (matches.at(-1)?.handle as PageHandle | undefined)?.path;
    if (previous.current === null) {
      previous.current = path;
      recorded.current = privatePath ?? path;
      return;
    }
    if (previous.current === path) return;
    const ref = recorded.current;
    previous.current = path;
    recorded.current = privatePath ?? path;
    let page = path.replace(/^\/+|\/+$/g, "").replace(/\//g, ".") || "home";
    for (const m of matches) {
      const h = m.handle as PageHandle | undefined;
      if (h?.page) page = h.page;
    }
    const deepest = matches.at(-1);
    sendTrack({ type: "page.view", page, path: privatePath ?? path, ref });
    if ((deepest?.handle as { blogView?: boolean } | undefined)?.blogView && deepest?.params.slug) {
      sendTrack({ type: "blog.view", slug: deepest.params.slug, src: "site", ref });
    }
  }, [location.pathname, matches]);
  return null;
}
