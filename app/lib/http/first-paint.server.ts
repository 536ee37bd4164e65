import fs from "node:fs";
import path from "node:path";

/**
 * A cached page (app/lib/http/page-cache.server.ts) is prepared once for a fast first paint on a
 * slow phone connection: nothing the first paint needs is fetched separately, and nothing it
 * does not need is fetched or run before it.
 *
 * Stylesheets: carried inside the page itself, so the first paint waits
 * for no second request (on a slow phone connection each one is a round trip of 150 ms and
 * more, and the page's scripts compete with it). Each `<link rel="stylesheet" href="/assets/….css">`
 * becomes a `<style data-inline-href>` with the file's text, followed by the same link marked
 * `disabled`, which the browser does not fetch: React still finds the link it rendered when it
 * hydrates the page (it matches head links by rel and href) and removes it on navigating away;
 * the root then removes the style that stood for it (app/components/layout/inline-styles.ts).
 * Only the build's own CSS files are read, named as the build wrote them.
 */
const ASSET_CSS = /<link rel="stylesheet" href="(\/assets\/[A-Za-z0-9._-]+\.css)"\/>/g;

const texts = new Map<string, string | null>();

function cssText(clientDir: string, href: string): string | null {
  if (!texts.has(href)) {
    let text: string | null = null;
    try {
      const file = path.join(clientDir, href);
      if (file.startsWith(path.join(clientDir, "assets") + path.sep)) text = fs.readFileSync(file, "utf8");
    } catch {
      text = null;
    }
    // A stylesheet never holds "</style" in a build of ours; if one did, it stays a link.
    texts.set(href, text !== null && /<\/style/i.test(text) ? null : text);
  }
  return texts.get(href)!;
}

/** The page with its build stylesheets inlined; a file that cannot be read stays a link. */
export function inlineStylesheets(html: string, clientDir: string): string {
  return html.replace(ASSET_CSS, (tag, href: string) => {
    const css = cssText(clientDir, href);
    return css === null ? tag : `<style data-inline-href="${href}">${css}</style><link rel="stylesheet" href="${href}" disabled=""/>`;
  });
}

const MODULE_PRELOAD = /<link rel="modulepreload" href="(\/assets\/[A-Za-z0-9._-]+\.js)"\/>/g;
const BOOT = /<script type="module" async="">([\s\S]*?)<\/script>/;
const STATIC_IMPORT = /^import \* as (route\d+) from "(\/assets\/[A-Za-z0-9._-]+\.js)";$/gm;

/**
 * Scripts: React Router's boot script and its module preloads would start fetching as the page
 * is read, and then the phone spends a second of its slow CPU starting React and hydrating a
 * page its reader may only read (docs/decisions/first-paint-and-scripts.md). Here they wait, and are then fetched all
 * at once as before: the preloads are added by the boot script and its route imports become
 * dynamic imports. Until then the page works as it does with scripts off: links are links, forms
 * post. A boot script of another shape is left as it is (the page is then only slower, never
 * broken). When they start (docs/decisions/first-paint-and-scripts.md):
 * - at the reader's first use of the page: a touch, a press, a key, a wheel turn or a mouse
 *   movement, whichever comes first (a touch that starts a scroll counts). Never inside that
 *   event's handlers: a press waits for its click (or for the scroll it became), so the tap's
 *   own action (a link followed, a form sent, a radio ticked) goes first and is not slowed;
 * - or, on a page whose purpose is a form, a store or reactions, sooner: when the browser is idle
 *   after load (an element marked `data-scripts-start="idle"`), or when a marked part comes
 *   within half a screen of view (`data-scripts-start="near"`: a post's reactions at its end), so that
 *   the tap there finds the page enhanced.
 */
// Not "focusin": a dialog opened by a script (the /vespers announcement) moves focus by itself.
export const FIRST_USE_EVENTS = ["pointerdown", "pointermove", "touchstart", "keydown", "wheel"] as const;
/** The attribute that starts a page's scripts before its first use: "idle" or "near". */
export const SCRIPTS_START_ATTRIBUTE = "data-scripts-start";

const WHEN_TO_START = [
  `const on = ${JSON.stringify(FIRST_USE_EVENTS)}; let done = false; let pressed = false; let seen = null;`,
  `const start = () => { if (done) return; done = true; for (const t of on) removeEventListener(t, use, true); if (seen) seen.disconnect(); go(); };`,
  `const idle = () => { if (window.requestIdleCallback) requestIdleCallback(start, { timeout: 1000 }); else setTimeout(start, 50); };`,
  `const after = () => setTimeout(start, 0);`,
  `const use = (e) => { if (e.type === "pointerdown" || e.type === "touchstart") { if (pressed) return; pressed = true; addEventListener("click", after, { capture: true, once: true }); addEventListener("pointercancel", after, { capture: true, once: true }); setTimeout(start, 1000); } else if (e.type === "keydown") after(); else idle(); };`,
  `for (const t of on) addEventListener(t, use, { capture: true, passive: true });`,
  // A reader saving data (the server sends such a browser the Lite page) waits for first use.
  `const frugal = !!(navigator.connection && navigator.connection.saveData);`,
  `if (!frugal && document.querySelector('[${SCRIPTS_START_ATTRIBUTE}="idle"]')) { if (document.readyState === "complete") idle(); else addEventListener("load", idle, { once: true }); }`,
  `const near = document.querySelectorAll('[${SCRIPTS_START_ATTRIBUTE}="near"]');`,
  `if (!frugal && near.length && window.IntersectionObserver) { seen = new IntersectionObserver((es) => { if (es.some((x) => x.isIntersecting)) { seen.disconnect(); idle(); } }, { rootMargin: "50% 0px" }); for (const el of near) seen.observe(el); }`,
].join(" ");

/**
 * A share panel's 'Share…' and 'Copy link' (app/components/ui/share-panel.tsx) work at the first
 * tap, before the page's scripts have started: the device share sheet (else a copy) and the copy
 * are done here, in the tap itself (both need it), and the result is shown by the status's
 * `data-early` attribute, which the panel takes over when it hydrates. A panel marked
 * `data-ready` is the component's own.
 */
const SHARE_BEFORE_START = [
  `addEventListener("click", (e) => {`,
  `const b = e.target instanceof Element ? e.target.closest("[data-share]") : null; const box = b && b.closest("[data-share-url]");`,
  `if (!box || box.hasAttribute("data-ready")) return;`,
  `const url = box.getAttribute("data-share-url"); const status = box.querySelector(".share-status");`,
  `const say = (ok) => { if (status) { status.setAttribute("data-url", url); status.setAttribute("data-early", ok ? "ok" : "error"); } };`,
  `const old = () => { try { const a = document.createElement("textarea"); a.value = url; a.setAttribute("readonly", ""); a.style.position = "fixed"; a.style.opacity = "0"; document.body.append(a); a.select(); const ok = document.execCommand("copy"); a.remove(); say(ok); } catch { say(false); } };`,
  `const copy = () => { if (navigator.clipboard) navigator.clipboard.writeText(url).then(() => say(true), old); else old(); };`,
  `if (status) status.removeAttribute("data-early");`,
  `if (b.getAttribute("data-share") === "sheet" && typeof navigator.share === "function") navigator.share({ title: box.getAttribute("data-share-title") || "", text: box.getAttribute("data-share-text") || "", url }).catch((x) => { if (!(x instanceof DOMException && x.name === "AbortError")) copy(); });`,
  `else copy();`,
  `});`,
].join(" ");

/**
 * Once started, the start is cut into short tasks with a yield to the browser between them: the
 * preloads are added one to a task (each starts a fetch: all 27 of /merchandise at once were a
 * task of about 100 ms on a slowed CPU), then the modules are evaluated one to a task (each with
 * what it imports that has not run yet; together they were one task of 140-220 ms), so a tap made
 * meanwhile is answered between two of them and no part of the start is a long task of its own.
 * React then hydrates in a transition (React Router's entry), which yields by itself.
 */
const ONE_MODULE_A_TASK = `const pause = () => new Promise((go) => { const c = new MessageChannel(); c.port1.onmessage = () => { c.port1.close(); go(); }; c.port2.postMessage(0); });`;
const ENTRY_IMPORT = /import\("(\/assets\/[A-Za-z0-9._-]+\.js)"\)/g;

export function bootOnFirstUse(html: string): string {
  const boot = BOOT.exec(html);
  if (!boot) return html;
  const imports = [...boot[1]!.matchAll(STATIC_IMPORT)];
  const rest = boot[1]!.replace(STATIC_IMPORT, "").replace(/^;\s*/, "");
  if (imports.length === 0 || /^\s*import\s/m.test(rest)) return html;
  const preloads = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]!);
  const names = imports.map((m) => m[1]).join(", ");
  // Evaluated one by one (each with what it imports that has not run yet), in the preloads'
  // order; the entry, whose evaluation starts React, last, by the boot script itself.
  const entries = new Set([...rest.matchAll(ENTRY_IMPORT)].map((m) => m[1]!));
  const stepwise = [...new Set([...preloads, ...imports.map((m) => m[2]!)])].filter((href) => !entries.has(href));
  const scroll = SCROLL_RESTORE.exec(html);
  const script =
    `${SHARE_BEFORE_START}\n` +
    `await new Promise((go) => { ${WHEN_TO_START} });\n` +
    (scroll ? `${KEY_THE_ENTRY}\n` : "") +
    `${ONE_MODULE_A_TASK}\n` +
    `for (const href of ${JSON.stringify(preloads)}) { const l = document.createElement("link"); l.rel = "modulepreload"; l.href = href; document.head.append(l); await pause(); }\n` +
    `for (const href of ${JSON.stringify(stepwise)}) { await import(href); await pause(); }\n` +
    `const [${names}] = await Promise.all([${imports.map((m) => `import(${JSON.stringify(m[2])})`).join(", ")}]);\n` +
    rest;
  const prepared = html.replace(MODULE_PRELOAD, "").replace(boot[0], () => `<script type="module" async="">${script}</script>`);
  return scroll ? prepared.replace(scroll[0], () => `<script>${restoreOnly(scroll[1]!)}</script>`) : prepared;
}

/**
 * React Router's scroll restoration script (`<ScrollRestoration />`), as it renders it with no
 * getKey: at parse time it gives the history entry a key (history.replaceState) and reads the
 * saved places from sessionStorage for it. On a first visit the key is new, so the read finds
 * nothing, yet both calls wait on the browser process before the first paint (in a /vespers trace
 * the script took 14.9 ms, 1.8 ms of it its own work). Here the entry gets its key at first use, before React
 * Router starts (it takes the entry's key for its location then), and the script at parse time
 * reads the saved places only for an entry that already has a key: a reload or a return to a
 * page reached by a link the app followed, as before. Matched by shape; any other stays as it is.
 */
const SCROLL_RESTORE =
  /<script>\(\(storageKey\d*, restoreKey\) => \{\s*if \(!window\.history\.state \|\| !window\.history\.state\.key\) \{\s*let key = Math\.random\(\)\.toString\(32\)\.slice\(2\);\s*window\.history\.replaceState\(\{ key \}, ""\);\s*\}\s*try \{\s*let positions = JSON\.parse\(sessionStorage\.getItem\(storageKey\d*\) \|\| "\{\}"\);\s*let storedY = positions\[restoreKey \|\| window\.history\.state\.key\];\s*if \(typeof storedY === "number"\) \{\s*window\.scrollTo\(0, storedY\);\s*\}\s*\} catch \(error\) \{\s*console\.error\(error\);\s*sessionStorage\.removeItem\(storageKey\d*\);\s*\}\s*\}\)\(("[A-Za-z0-9_-]+"), null\)<\/script>/;
const KEY_THE_ENTRY = `if (!history.state || !history.state.key) history.replaceState({ key: Math.random().toString(32).slice(2) }, "");`;
const restoreOnly = (storageKey: string) =>
  `((storageKey) => { const key = history.state && history.state.key; if (!key) return; try { const y = JSON.parse(sessionStorage.getItem(storageKey) || "{}")[key]; if (typeof y === "number") scrollTo(0, y); } catch (error) { console.error(error); sessionStorage.removeItem(storageKey); } })(${storageKey})`;

/** Both preparations, in the order they must run. */
export const prepareForFirstPaint = (html: string, clientDir: string) => bootOnFirstUse(inlineStylesheets(html, clientDir));
