/**
 * A route that has nothing for scripts to enhance says so with `handle = { hydrate: false }`;
 * the root then sends its page with no scripts at all (no module preloads, no boot script, no
 * scroll restoration), as in Lite mode. Its forms post and reload as they do with scripts off.
 * Which pages earn their JavaScript is listed in the README.
 */
export type HydrationHandle = { hydrate?: boolean };

/** False when any matched route opts out: a page hydrates only if every route in it may. */
export const hydrates = (matches: readonly { handle?: unknown }[]) =>
  !matches.some((m) => (m.handle as HydrationHandle | undefined)?.hydrate === false);
