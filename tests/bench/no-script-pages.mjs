// The public pages that do not hydrate (their route says `handle = { hydrate: false }`, read by
// app/root.tsx): they must load no JavaScript at all. `npm run lighthouse` holds them to 0 bytes
// and the browser test tests/e2e/no-script-pages.spec.ts checks their HTML.
export const NO_SCRIPT_PAGES = [];
