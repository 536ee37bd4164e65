import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import * as badgeOrders from "~/routes/api/badge-orders";
import * as issuer from "~/routes/badges/open-badges-issuer";
import * as legacyData from "~/routes/api/legacy-data";
import * as c2b from "~/routes/api/mpesa-c2b";
import { answeringEveryRequest, jsonApi } from "~/lib/api.server";
import { jsonResponse } from "~/lib/http.server";
import { directRoutes } from "./direct-routes";

const page = () => null;
const progress = jsonApi({ GET: async () => jsonResponse({ ok: true, raised: 1500 }, { headers: { "X-Shown": "yes" } }) });

/** A build shaped as React Router's: the site's own API modules beside a page, a layout and the catch-all. */
const build = {
  routes: {
    root: { id: "root", path: "", module: { default: page } },
    home: { id: "home", parentId: "root", index: true, module: { default: page } },
    orders: { id: "orders", parentId: "root", path: "api/badge_orders.php", module: badgeOrders },
    progress: { id: "progress", parentId: "root", path: "api/event_progress.php", module: progress },
    issuer: { id: "issuer", parentId: "root", path: "badges/issuer.json", module: issuer },
    data: { id: "data", parentId: "root", path: "data/:file", module: legacyData },
    order: { id: "order", parentId: "root", path: "orders/:reference", module: { default: page, action: progress.action } },
    c2b: { id: "c2b", parentId: "root", path: "api/pay/c2b/:kind/:secret", module: c2b },
    admin: { id: "admin", parentId: "root", path: "admin", module: { default: page } },
    adminApi: { id: "adminApi", parentId: "admin", path: "x.php", module: progress },
    event: { id: "event", parentId: "root", path: "event", module: { default: page, action: progress.action } },
    rest: { id: "rest", parentId: "root", path: "api/*", module: progress },
  },
} as unknown as ServerBuild;

describe("directRoutes", () => {
  const direct = directRoutes(build);

  it("answers a jsonApi route at its exact address with the route's own handler, by method", () => {
    expect(direct("POST", "/api/badge_orders.php")).toBe(badgeOrders.action);
    expect(direct("GET", "/api/badge_orders.php")).toBe(badgeOrders.loader);
    // An address with a parameter that no other route could take from it.
    expect(direct("GET", "/data/merch.json")).toBeDefined();
    expect(direct("PUT", "/api/badge_orders.php")).toBe(badgeOrders.action);
    expect(direct("GET", "/admin/x.php")).toBe(progress.loader);
  });

  it("leaves everything else to React Router", () => {
    // Other spellings React Router also matches: it answers them, with the same handler.
    expect(direct("POST", "/API/badge_orders.php")).toBeUndefined();
    expect(direct("POST", "/api/badge_orders.php/")).toBeUndefined();
    expect(direct("POST", "/api/badge%5Forders.php")).toBeUndefined();
    // A loader that is not jsonApi's, an address with a splat, a page (even one whose action is
    // jsonApi's: the page's loaders run after it), an unknown address.
    expect(direct("GET", "/badges/issuer.json")).toBeUndefined();
    expect(direct("GET", "/orders/BO-ABC123")).toBeUndefined();
    expect(direct("GET", "/api/anything.php")).toBeUndefined();
    expect(direct("POST", "/event")).toBeUndefined();
    expect(direct("GET", "/admin")).toBeUndefined();
    expect(direct("GET", "/")).toBeUndefined();
    expect(direct("GET", "/nowhere")).toBeUndefined();
  });

  it("answers HEAD with the GET answer's status and headers and no body", async () => {
    const head = direct("HEAD", "/api/event_progress.php");
    expect(head).toBeDefined();
    const args = { request: new Request("http://site.test/api/event_progress.php", { method: "HEAD" }), context: {} as never };
    const answer = await head!(args);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("X-Shown")).toBe("yes");
    expect(answer.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(await answer.text()).toBe("");
    const got = await direct("GET", "/api/event_progress.php")!(args);
    expect(await got.json()).toEqual({ ok: true, raised: 1500 });
  });
});

describe("directRoutes, addresses with parameters", () => {
  const echo = answeringEveryRequest(async ({ params }: { request: Request; params: Record<string, string> }) => jsonResponse(params));
  const routes = (extra: Record<string, { path: string; module: object; index?: boolean }>) =>
    ({
      routes: {
        root: { id: "root", path: "", module: { default: page } },
        hook: { id: "hook", parentId: "root", path: "api/hook/:kind/:secret", module: { action: echo, loader: echo } },
        rest: { id: "rest", parentId: "root", path: "api/*", module: progress },
        ...Object.fromEntries(Object.entries(extra).map(([id, r]) => [id, { id, parentId: "root", ...r }])),
      },
    }) as unknown as ServerBuild;

  it("answers the route with its parameters, as React Router would pass them", async () => {
    const direct = directRoutes(routes({}));
    const run = direct("POST", "/api/hook/confirmation/s3cret-Value");
    expect(run).toBeDefined();
    const answer = await run!({ request: new Request("http://site.test/api/hook/confirmation/s3cret-Value", { method: "POST" }), context: {} as never });
    expect(await answer.json()).toEqual({ kind: "confirmation", secret: "s3cret-Value" });
    // The site's own C2B callback route is one of them.
    expect(directRoutes(build)("POST", "/api/pay/c2b/confirmation/x")).toBeDefined();
  });

  it("leaves to React Router a path it would read otherwise: escapes, other spellings, empty or extra parts", () => {
    const direct = directRoutes(routes({}));
    for (const path of ["/api/hook/confirmation/a%20b", "/API/hook/confirmation/x", "/api/hook/confirmation/x/", "/api/hook//x", "/api/hook/x", "/api/hook/x/y/z"]) {
      expect(direct("POST", path), path).toBeUndefined();
    }
  });

  it("answers nothing directly where another route could win in React Router's ranking", () => {
    // A fixed address among the parameter's values outranks it; so does a longer fixed prefix
    // with a splat; a route of the same rank is a tie React Router breaks by order.
    for (const extra of [
      { path: "api/hook/confirmation/fixed", module: { default: page } },
      { path: "api/hook/confirmation/*", module: progress },
      { path: "api/:area/confirmation/:secret", module: progress },
      { path: "API/hook/:a/:b", module: progress },
      // Optional parts: React Router matches each spelling (here 'api/hook/confirmation/:x').
      { path: "api/hook/confirmation/:x?", module: progress },
    ]) {
      expect(directRoutes(routes({ other: extra }))("POST", "/api/hook/confirmation/x"), extra.path).toBeUndefined();
    }
    // Routes that rank below it, or can never match the same path, change nothing.
    for (const extra of [
      { path: "api/:area/:kind/:secret", module: progress },
      { path: "api/:a/:b/:c/:d", module: progress },
      { path: "api/hook/:kind", module: progress },
      { path: "other/:a/:b/:c", module: progress },
      { path: "api/hook/:kind/:secret/:page?/:n", module: progress },
      { path: "*", module: { default: page } },
    ]) {
      expect(directRoutes(routes({ other: extra }))("POST", "/api/hook/confirmation/x"), extra.path).toBeDefined();
    }
  });
});
