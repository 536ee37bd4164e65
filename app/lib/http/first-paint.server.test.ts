import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub, Links, Outlet, Scripts, ScrollRestoration } from "react-router";
import { describe, expect, it } from "vitest";
import { answer, testBuild } from "../../../tests/support/router-build";
import { bootOnFirstUse, inlineStylesheets, prepareForFirstPaint } from "./first-paint.server";

const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), "first-paint-"));
fs.mkdirSync(path.join(clientDir, "assets"));
fs.writeFileSync(path.join(clientDir, "assets", "site-abc.css"), ".a{color:#123}");
fs.writeFileSync(path.join(clientDir, "secret.css"), ".x{}");

/**
 * A page as the installed React Router renders it (`<Links/>`, `<Scripts/>` and, when asked,
 * `<ScrollRestoration/>` in the root, through its own request handler and `<ServerRouter>`), for a
 * route module at /assets/event-B.js under the root's /assets/root-A.js: an upgrade that changes
 * the boot script's shape fails these tests instead of silently leaving every page to boot at once.
 */
async function renderedPage({ scroll = false } = {}): Promise<string> {
  const Root = () =>
    createElement(
      "html",
      null,
      createElement("head", null, createElement(Links)),
      createElement("body", null, scroll ? createElement(ScrollRestoration) : null, createElement(Outlet), createElement(Scripts)),
    );
  const build = testBuild([
    { id: "root", path: "", file: "/assets/root-A.js", css: ["/assets/site-abc.css", "/assets/missing.css"], module: { default: Root } },
    { id: "routes/event/event", parentId: "root", path: "event", file: "/assets/event-B.js", module: { default: () => createElement("main", null, "Hi") } },
  ]);
  const res = await answer(build, "/event");
  expect(res.status).toBe(200);
  return res.text();
}
const PAGE = await renderedPage();
const PAGE_WITH_SCROLL = await renderedPage({ scroll: true });

describe("a cached page prepared for its first paint", () => {
  it("carries the build's stylesheets inline, each beside its link marked disabled; a file it cannot read stays a link", () => {
    const html = inlineStylesheets(PAGE, clientDir);
    expect(html).toContain('<style data-inline-href="/assets/site-abc.css">.a{color:#123}</style><link rel="stylesheet" href="/assets/site-abc.css" disabled=""/>');
    expect(html).toContain('<link rel="stylesheet" href="/assets/missing.css"/>');
    expect(inlineStylesheets('<link rel="stylesheet" href="/assets/../secret.css"/>', clientDir)).toBe('<link rel="stylesheet" href="/assets/../secret.css"/>');
  });

  it("fetches no script before the reader uses the page: the preloads leave the head and the route imports wait for a touch, a key or the mouse", () => {
    const html = bootOnFirstUse(PAGE);
    expect(html).not.toContain('<link rel="modulepreload"');
    const boot = /<script type="module" async="">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(boot).not.toMatch(/^import /m);
    expect(boot.indexOf('addEventListener(t, use, { capture: true, passive: true })')).toBeLessThan(boot.indexOf("import("));
    for (const event of ["pointerdown", "touchstart", "keydown"]) expect(boot).toContain(`"${event}"`);
    expect(boot).toContain('["/assets/entry.client-C.js","/assets/root-A.js","/assets/event-B.js"]');
    expect(boot).toContain('const [route0, route1] = await Promise.all([import("/assets/root-A.js"), import("/assets/event-B.js")]);');
    expect(boot).toContain('window.__reactRouterRouteModules = {"root":route0,"routes/event/event":route1};');
    expect(boot.trimEnd().endsWith('import("/assets/entry.client-C.js");')).toBe(true);
  });

  it("leaves a boot script of another shape as it is", () => {
    const other = '<head><link rel="modulepreload" href="/assets/x.js"/></head><script type="module" async="">import { a } from "/assets/x.js"; a();</script>';
    expect(bootOnFirstUse(other)).toBe(other);
    expect(prepareForFirstPaint("<p>no scripts</p>", clientDir)).toBe("<p>no scripts</p>");
  });

  it("on a first visit touches neither history nor sessionStorage before the reader uses the page; the entry gets its key at first use, before React Router starts", () => {
    expect(PAGE_WITH_SCROLL).toContain(`${scrollRestorationAsRendered()}<main>`);
    const html = bootOnFirstUse(PAGE_WITH_SCROLL);
    const atParse = /<script>([\s\S]*?)<\/script><main>/.exec(html)![1]!;
    expect(atParse).not.toContain("replaceState");
    const boot = /<script type="module" async="">([\s\S]*?)<\/script>/.exec(html)![1]!;
    const keyed = boot.indexOf("history.replaceState(");
    expect(keyed).toBeGreaterThan(boot.indexOf("addEventListener(t, use"));
    expect(keyed).toBeLessThan(boot.indexOf("import("));

    // The script at parse time, run as the browser would: only an entry with a key reads its place.
    const calls: string[] = [];
    const run = (state: unknown, saved: string | null) => {
      calls.length = 0;
      vm.runInNewContext(atParse, {
        history: { state, replaceState: () => calls.push("replaceState") },
        sessionStorage: { getItem: () => (calls.push("getItem"), saved), removeItem: () => calls.push("removeItem") },
        scrollTo: (x: number, y: number) => calls.push(`scrollTo ${x},${y}`),
        console: { error: () => calls.push("error") },
      });
      return [...calls];
    };
    expect(run(null, '{"k1":420}')).toEqual([]);
    expect(run({ key: "k1" }, '{"k1":420}')).toEqual(["getItem", "scrollTo 0,420"]);
    expect(run({ key: "k2" }, '{"k1":420}')).toEqual(["getItem"]);
    expect(run({ key: "k1" }, "{not json")).toEqual(["getItem", "error", "removeItem"]);
  });

  it("leaves React Router's scroll script as it is where the page boots at once, or where it restores by another key", () => {
    const script = scrollRestorationAsRendered();
    const noBoot = `<body>${script}<main>Hi</main></body>`;
    expect(bootOnFirstUse(noBoot)).toBe(noBoot);
    const otherKey = script.replace(/, null\)<\/script>$/, ', "/blogs")</script>');
    expect(otherKey).not.toBe(script);
    expect(bootOnFirstUse(PAGE.replace("<main>", `${otherKey}<main>`))).toContain(otherKey);
  });
});

/** `<ScrollRestoration />` as the installed React Router renders it on the server. */
function scrollRestorationAsRendered(): string {
  const Stub = createRoutesStub([{ path: "/", Component: () => createElement(ScrollRestoration) }]);
  const html = renderToString(createElement(Stub, { initialEntries: ["/"] }));
  expect(html).toMatch(/^<script>[\s\S]*sessionStorage[\s\S]*<\/script>$/);
  return html;
}

/** Runs the boot script's wait for its start in a fake page; returns the page's handles. */
function waitInFakePage({ marks = [] as string[], readyState = "loading", saveData = false } = {}) {
  const boot = /<script type="module" async="">([\s\S]*?)<\/script>/.exec(bootOnFirstUse(PAGE))![1]!;
  const wait = /await new Promise\(\(go\) => \{ ([\s\S]*?) \}\);\n/.exec(boot)![1]!;
  const listeners = new Map<string, Set<(e: { type: string }) => void>>();
  const timers: (() => void)[] = [];
  const observers: ((entries: { isIntersecting: boolean }[]) => void)[] = [];
  let started = 0;
  const sandbox = {
    go: () => started++,
    addEventListener: (t: string, f: (e: { type: string }) => void) => (listeners.get(t) ?? listeners.set(t, new Set()).get(t)!).add(f),
    removeEventListener: (t: string, f: (e: { type: string }) => void) => listeners.get(t)?.delete(f),
    setTimeout: (f: () => void) => timers.push(f),
    window: {} as Record<string, unknown>,
    navigator: { connection: { saveData } },
    document: {
      readyState,
      querySelector: (sel: string) => (marks.some((m) => sel.includes(`"${m}"`)) ? {} : null),
      querySelectorAll: (sel: string) => (marks.some((m) => sel.includes(`"${m}"`)) ? [{}] : []),
    },
  };
  sandbox.window.requestIdleCallback = (f: () => void) => timers.push(f);
  sandbox.window.IntersectionObserver = class {
    constructor(f: (entries: { isIntersecting: boolean }[]) => void) {
      observers.push(f);
    }
    observe() {}
    disconnect() {}
  };
  Object.assign(sandbox, { requestIdleCallback: sandbox.window.requestIdleCallback, IntersectionObserver: sandbox.window.IntersectionObserver });
  vm.runInNewContext(`(() => { ${wait} })()`, sandbox);
  const fire = (type: string) => [...(listeners.get(type) ?? [])].forEach((f) => f({ type }));
  const flush = () => timers.splice(0).forEach((f) => f());
  return { fire, flush, started: () => started, see: () => observers.forEach((f) => f([{ isIntersecting: true }])) };
}

describe("when a cached page starts its scripts", () => {
  it("never inside a tap: a press waits for its click, then starts after it", () => {
    const page = waitInFakePage();
    page.fire("pointerdown");
    page.fire("touchstart");
    expect(page.started()).toBe(0);
    page.fire("click");
    expect(page.started(), "not in the click's own handler either").toBe(0);
    page.flush();
    expect(page.started()).toBe(1);
    page.fire("keydown");
    page.flush();
    expect(page.started(), "once").toBe(1);
  });

  it("a press that becomes a scroll starts them too; a key after its own events", () => {
    const scroll = waitInFakePage();
    scroll.fire("pointerdown");
    scroll.fire("pointercancel");
    scroll.flush();
    expect(scroll.started()).toBe(1);
    const key = waitInFakePage();
    key.fire("keydown");
    expect(key.started()).toBe(0);
    key.flush();
    expect(key.started()).toBe(1);
  });

  it("a reading page waits for its reader; a form or store page starts when idle after load; a marked part when near", () => {
    const reading = waitInFakePage();
    reading.fire("load");
    reading.flush();
    expect(reading.started()).toBe(0);

    const store = waitInFakePage({ marks: ["idle"] });
    expect(store.started()).toBe(0);
    store.fire("load");
    store.flush();
    expect(store.started()).toBe(1);
    const loaded = waitInFakePage({ marks: ["idle"], readyState: "complete" }); // the script ran after load
    loaded.flush();
    expect(loaded.started()).toBe(1);

    const post = waitInFakePage({ marks: ["near"] });
    post.fire("load");
    post.flush();
    expect(post.started()).toBe(0);
    post.see();
    post.flush();
    expect(post.started()).toBe(1);
  });

  it("a browser saving data waits for first use even on a store page", () => {
    const page = waitInFakePage({ marks: ["idle", "near"], saveData: true });
    page.fire("load");
    page.see();
    page.flush();
    expect(page.started()).toBe(0);
  });

  it("answers a share panel's first tap before the scripts start, in the tap itself", () => {
    const boot = /<script type="module" async="">([\s\S]*?)<\/script>/.exec(bootOnFirstUse(PAGE))![1]!;
    expect(boot.indexOf('addEventListener("click", (e) => {')).toBeLessThan(boot.indexOf("await new Promise"));
    expect(boot).toContain('if (!box || box.hasAttribute("data-ready")) return;');
    expect(boot).toContain("navigator.clipboard.writeText(url)");
  });
});
