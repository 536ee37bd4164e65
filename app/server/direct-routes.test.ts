import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import * as badgeOrders from "~/routes/api/badge-orders";
import * as issuer from "~/routes/badges/open-badges-issuer";
import * as legacyData from "~/routes/api/legacy-data";
import { jsonApi } from "~/lib/api.server";
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
    expect(direct("PUT", "/api/badge_orders.php")).toBe(badgeOrders.action);
    expect(direct("GET", "/admin/x.php")).toBe(progress.loader);
  });

  it("leaves everything else to React Router", () => {
    // Other spellings React Router also matches: it answers them, with the same handler.
    expect(direct("POST", "/API/badge_orders.php")).toBeUndefined();
    expect(direct("POST", "/api/badge_orders.php/")).toBeUndefined();
    expect(direct("POST", "/api/badge%5Forders.php")).toBeUndefined();
    // A loader that is not jsonApi's, an address with a parameter or a splat, a page (even one
    // whose action is jsonApi's: the page's loaders run after it), an unknown address.
    expect(direct("GET", "/badges/issuer.json")).toBeUndefined();
    expect(direct("GET", "/data/merch.json")).toBeUndefined();
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
