import { useEffect, useRef } from "react";
import { useLocation, useMatches } from "react-router";
import { sendTrack } from "~/lib/track";

/**
 * The server counts the first page of a visit when it sends the document; this reports
 * the pages reached by in-app navigation afterwards, once each.
 */
export function PageViewBeacon() {
  const location = useLocation();
  const matches = useMatches();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const path = location.pathname;
    if (previous.current === null) {
      previous.current = path;
      return;
    }
    if (previous.current === path) return;
    const ref = previous.current;
    previous.current = path;
    let page = path.replace(/^\/+|\/+$/g, "").replace(/\//g, ".") || "home";
    for (const m of matches) {
      const h = m.handle as { page?: string } | undefined;
      if (h?.page) page = h.page;
    }
    sendTrack({ type: "page.view", page, path, ref });
    const deepest = matches.at(-1);
    if ((deepest?.handle as { blogView?: boolean } | undefined)?.blogView && deepest?.params.slug) {
      sendTrack({ type: "blog.view", slug: deepest.params.slug, src: "site", ref });
    }
  }, [location.pathname, matches]);
  return null;
}
