import { createElement } from "react";
import { Outlet, Scripts, useLocation, type EntryContext } from "react-router";
import { describe, expect, it } from "vitest";
import handleRequest from "./entry.server";
import { answer, testBuild } from "../tests/support/router-build";

/**
 * The document entry run by the installed React Router (its request handler and ServerRouter):
 * a page kept for every visitor is drawn at its address without the parameters it does not
 * read, and React Router's own context is left as React Router made it.
 */
describe("a cached page drawn by the entry", () => {
  const seen: EntryContext[] = [];
  const entry = (request: Request, status: number, headers: Headers, context: EntryContext, load: never) => {
    seen.push(context);
    return handleRequest(request, status, headers, context, load) as Promise<Response> | Response;
  };
  const Root = () => createElement("html", null, createElement("head"), createElement("body", null, createElement(Outlet), createElement(Scripts)));
  const Page = () => createElement("main", null, `search:${useLocation().search}`);
  const build = testBuild(
    [
      { id: "root", path: "", module: { default: Root } },
      { id: "routes/badges", parentId: "root", path: "entry-test-badges", module: { default: Page, handle: { cacheSeconds: 60, cacheQuery: ["q"] } } },
    ],
    { document: entry },
  );
  const ask = (path: string) => answer(build, new Request(`http://site.test${path}`, { headers: { "User-Agent": "Googlebot/2.1" } }));

  it("is drawn without the parameters its route does not read, and the next visitor gets the same bytes", async () => {
    const first = await ask("/entry-test-badges?fbclid=visitor-one&q=kim&utm_source=x");
    expect(first.status).toBe(200);
    expect(first.headers.get("X-Page-Cache")).toBe("miss");
    const html = await first.text();
    expect(html).toContain("<main>search:?q=kim</main>");
    expect(html).not.toContain("visitor-one");
    expect(html).not.toContain("utm_source");
    // React Router's context still holds the address as asked.
    expect(seen.at(-1)!.staticHandlerContext.location.search).toBe("?fbclid=visitor-one&q=kim&utm_source=x");

    const second = await ask("/entry-test-badges?q=kim&fbclid=visitor-two");
    expect(second.headers.get("X-Page-Cache")).toBe("hit");
    expect(await second.text()).toBe(html);
  });
});
