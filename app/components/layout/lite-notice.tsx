import { useLocation } from "react-router";
import { liteToggleHref } from "~/lib/core/data-saver";
import { useLite } from "./use-lite";

/**
 * At the top of every page sent in Lite mode: that it is on, and the way back. A plain link
 * (a full page load), so it works with no script, which is the point of Lite mode.
 */
export function LiteNotice() {
  const lite = useLite();
  const { pathname, search } = useLocation();
  if (!lite) return null;
  return (
    <aside className="lite-notice" aria-label="Lite mode">
      <p className="container">
        <strong>Lite mode on:</strong> no scripts, less data.{" "}
        <a href={liteToggleHref(false, pathname + search)} rel="nofollow">
          Turn Lite mode off
        </a>
      </p>
    </aside>
  );
}
