// The public pages sent without any JavaScript (their route says `handle = { hydrate: false }`,
// read by app/root.tsx; app/lib/core/hydration.ts). `npm run lighthouse` holds them to 0 bytes of
// script; tests/e2e/no-script-pages.spec.ts checks that they carry none while the pages that
// hydrate still do; tests/support/hydration.ts lets a journey on them take its no-script path.
export const NO_SCRIPT_PAGES = [
  "/",
  "/about",
  "/join/thanks",
  "/privacy",
  "/ministry",
  "/event/supporters",
  "/newsletter",
  "/unsubscribe",
];
