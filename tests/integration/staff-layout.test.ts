import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  UNSAFE_withComponentProps as withComponentProps,
} from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { wrongKeysText } from "~/features/admin/staff-screen";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import * as activityPage from "~/routes/admin/activity";
import * as badgeOrdersPage from "~/routes/admin/badge-orders";
import * as engagementPage from "~/routes/admin/engagement";
import * as adminPage from "~/routes/admin/index";
import * as layout from "~/routes/admin/layout";
import * as merchOrdersPage from "~/routes/admin/merch-orders";
import * as badgeOrdersApi from "~/routes/api/badge-orders";
import * as blogEditor from "~/routes/blog/admin";
import * as merchEditor from "~/routes/merch/admin";
import { ORIGIN, args, get, testContext } from "../support/http";
import { freshApp } from "../support/reset";

const STAFF = "10.0.0.42";
let cookie: string;

beforeEach(async () => {
  const db = await freshApp({ SMTP_URL: undefined });
  cookie = (await createAdminSessionCookie(db, get("/admin"), STAFF)).split(";")[0]!;
});

type Module = { loader: (a: never) => Promise<unknown>; action?: unknown; default: unknown; handle?: unknown; ErrorBoundary?: unknown };
const SCREENS: Array<[string, Module]> = [
  ["/admin", adminPage as Module],
  ["/admin/badge-orders", badgeOrdersPage as Module],
  ["/admin/merch-orders", merchOrdersPage as Module],
  ["/admin/activity", activityPage as Module],
  ["/admin/engagement", engagementPage as Module],
  ["/blogs/admin", blogEditor as Module],
  ["/merchandise/admin", merchEditor as Module],
];

const shell = (path: string, headers: Record<string, string> = {}) => layout.loader(args(get(path, headers)) as never);

type RouteComponent = Parameters<typeof withComponentProps>[0];

/** The layout and one screen below it, rendered on the server as a browser without JavaScript gets them. */
async function render(path: string, screen: Module, headers: Record<string, string> = {}) {
  const handler = createStaticHandler([
    {
      id: "routes/admin/layout",
      loader: layout.loader as never,
      handle: layout.handle,
      Component: withComponentProps(layout.default as RouteComponent) as ComponentType,
      children: [
        {
          id: "screen",
          path: path.split("?")[0],
          loader: screen.loader as never,
          action: screen.action as never,
          handle: screen.handle,
          Component: withComponentProps(screen.default as RouteComponent) as ComponentType,
        },
      ],
    },
  ]);
  const context = await handler.query(get(path, headers), { requestContext: testContext(STAFF) });
  if (context instanceof Response) throw new Error(`expected a page, got a ${context.status} Response`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return { status: context.statusCode, html: renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false })) };
}

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&amp;/g, "&").replace(/&#x27;/g, "'").replace(/\s+/g, " ");

describe("the staff layout", () => {
  it.each(SCREENS)("signed out, %s loads no data of its own and the layout returns to it after sign-in", async (path, screen) => {
    expect(await screen.loader(args(get(path)) as never)).toBeNull();
    expect(await shell(path)).toEqual({ signedIn: false, returnTo: path });
    const page = await render(path, screen);
    expect(page.status).toBe(200);
    expect(text(page.html)).toContain("Staff sign-in");
    expect(page.html).toContain(`name="returnTo" value="${path}"`);
    expect(page.html).not.toContain("Sign out");
    expect(page.html).not.toContain("<table");
  });

  it("returns to the screen with its query; on /admin, to its ?returnTo= when it is local", async () => {
    expect(await shell("/admin/activity?since=0&unique=1")).toEqual({ signedIn: false, returnTo: "/admin/activity?since=0&unique=1" });
    expect(await shell("/admin?returnTo=%2Fblogs%2Fadmin")).toEqual({ signedIn: false, returnTo: "/blogs/admin" });
    expect(await shell("/admin?returnTo=https%3A%2F%2Fevil.example")).toEqual({ signedIn: false, returnTo: "/" });
  });

  it.each(SCREENS)("signed in, %s is the screen inside the staff shell: its title, every staff screen, and both sign-outs", async (path, screen) => {
    expect(await screen.loader(args(get(path, { Cookie: cookie })) as never)).not.toBeNull();
    const page = await render(path, screen, { Cookie: cookie });
    expect(page.status).toBe(200);
    const title = (screen.handle as { heading?: string; title: string }).heading ?? (screen.handle as { title: string }).title;
    expect(page.html).toContain(`<h1>${title.replace("&", "&amp;")}</h1>`);
    expect(page.html).toMatch(/<header class="staff-header">/);
    expect(page.html).toContain('<nav aria-label="Staff tools"');
    for (const href of ["/admin", "/admin/badge-orders", "/admin/merch-orders", "/merchandise/admin", "/blogs/admin", "/admin/activity", "/admin/engagement"]) {
      expect(page.html).toContain(`href="${href}"`);
    }
    expect(text(page.html)).toContain("Sign out everywhere");
    expect(page.html).not.toContain("Staff sign-in");
    // Every session form posts to /admin, whose action owns them.
    const sessionForms = (page.html.match(/<form\b[^>]*>/g) ?? []).filter((f) => f.includes('action="/admin"'));
    expect(sessionForms).toHaveLength(2);
    for (const f of sessionForms) expect(f).toContain('method="post"');
  });

  it("asks for no-store on every staff page", () => {
    expect(new Headers(layout.headers({} as never) as HeadersInit).get("Cache-Control")).toBe("no-store");
  });

  it("shows staff the wrong admin keys of the last 24 hours, with the number of addresses", async () => {
    expect(await shell("/admin", { Cookie: cookie })).toEqual({ signedIn: true, wrongKeys: null });
    for (const [address, n] of [["10.0.0.66", 12], ["10.0.0.67", 1]] as const) {
      for (let i = 0; i < n; i++) {
        await badgeOrdersApi.loader(args(get("/api/badge_orders.php", { "X-Admin-Key": `wrong-key-${i}-00000000` }), address));
      }
    }
    const signedIn = await shell("/admin/activity", { Cookie: cookie });
    expect(signedIn).toEqual({ signedIn: true, wrongKeys: { keys: 13, addresses: 2 } });
    const page = await render("/admin/activity", activityPage as Module, { Cookie: cookie });
    expect(text(page.html)).toContain("13 wrong admin keys in the last 24 hours from 2 addresses — see Activity");
    expect(wrongKeysText({ keys: 1, addresses: 1 })).toBe("1 wrong admin key in the last 24 hours from 1 address");
  });

  it("signed out, the notice is not shown (nor anything else about the site's staff)", async () => {
    await badgeOrdersApi.loader(args(get("/api/badge_orders.php", { "X-Admin-Key": "wrong-key-00000000" }), "10.0.0.66"));
    expect(await shell("/admin/activity")).toEqual({ signedIn: false, returnTo: "/admin/activity" });
    const page = await render("/admin", adminPage as Module);
    expect(text(page.html)).not.toContain("wrong admin key");
  });

  it("a session ended elsewhere shows the sign-in form at the next navigation", async () => {
    expect(await shell("/admin/engagement", { Cookie: cookie })).toMatchObject({ signedIn: true });
    expect(layout.shouldRevalidate()).toBe(true);
    await adminPage.action(args(new Request(`${ORIGIN}/admin`, {
      method: "POST",
      body: new URLSearchParams({ intent: "sign-out-everywhere", confirmed: "yes" }),
      headers: { "content-type": "application/x-www-form-urlencoded", Origin: ORIGIN, Cookie: cookie },
    }))).catch((e: unknown) => e);
    expect(await shell("/admin/engagement", { Cookie: cookie })).toEqual({ signedIn: false, returnTo: "/admin/engagement" });
  });
});
