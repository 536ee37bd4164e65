/**
 * Data-saver ('Lite') mode: pages without any JavaScript, for visitors who pay for every
 * megabyte. On when the browser sends `Save-Data: on` or the visitor chose it in the footer
 * (the `lite=1` cookie); `lite=0` (the footer's 'Full site' link) turns it off even where the
 * browser asks to save data. Every journey works without JavaScript, so nothing is lost.
 */
export const LITE_COOKIE = "lite";
/** A year: the choice is the visitor's until they change it. */
export const LITE_COOKIE_MAX_AGE = 365 * 86_400;

export function prefersLite(headers: Headers): boolean {
  const chosen = /(?:^|;\s*)lite=([01])(?:;|$)/.exec(headers.get("cookie") ?? "")?.[1];
  if (chosen) return chosen === "1";
  return (headers.get("save-data") ?? "").trim().toLowerCase() === "on";
}

/** The footer link that switches the mode for the page the visitor is on. */
export const liteToggleHref = (on: boolean, path: string) => `/lite?on=${on ? 1 : 0}&to=${encodeURIComponent(path)}`;
