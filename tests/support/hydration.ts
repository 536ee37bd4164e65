import { NO_SCRIPT_PAGES } from "../bench/no-script-pages.mjs";

/**
 * Whether the page at `path` runs its scripts in this project: JavaScript on, and not one of
 * the pages sent without any (tests/bench/no-script-pages.mjs). Elsewhere the page behaves as
 * with JavaScript off, so a journey there takes its no-script path in both projects.
 */
export const enhancedAt = (jsEnabled: boolean, path: string) => jsEnabled && !NO_SCRIPT_PAGES.includes(path);
