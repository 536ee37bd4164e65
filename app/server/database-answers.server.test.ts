import { createElement } from "react";
import { isRouteErrorResponse, Outlet, Scripts, useRouteError } from "react-router";
import { describe, expect, it } from "vitest";
import { DatabaseUnavailableError, RETRY_AFTER_SECONDS, UNAVAILABLE } from "~/lib/core/database-unavailable";
import { answer, testBuild } from "../../tests/support/router-build";
import { answeringDatabaseOutages } from "./database-answers.server";

/**
 * The wrapping of every route's loader and action, run by the installed React Router (its request
 * handler, its route matching, its error boundaries and single-fetch data requests): a database
 * that is away is a 503 with Retry-After and the page's sentence, never React Router's 500.
 */
const away = async (): Promise<never> => {
  throw new DatabaseUnavailableError();
};
const Root = () => createElement("html", null, createElement("head"), createElement("body", null, createElement(Outlet), createElement(Scripts)));
function RootError() {
  const error = useRouteError();
  return createElement("html", null, createElement("head"), createElement("body", null, createElement("p", null, isRouteErrorResponse(error) ? `${error.status}: ${error.data}` : "500: other")));
}
const build = answeringDatabaseOutages(
  testBuild([
    { id: "root", path: "", module: { default: Root, ErrorBoundary: RootError } },
    { id: "routes/blogs", parentId: "root", path: "blogs", module: { default: () => createElement("main", null, "Blogs"), loader: away } },
    { id: "routes/join", parentId: "root", path: "join", module: { default: () => createElement("main", null, "Join"), action: away } },
    { id: "routes/fine", parentId: "root", path: "fine", module: { default: () => createElement("main", null, "Fine"), loader: async () => ({ n: 1 }) } },
    { id: "routes/api/series", parentId: "root", path: "api/series.php", module: { loader: away, action: away } },
    { id: "routes/feed", parentId: "root", path: "feed.txt", module: { loader: away } },
  ]),
);

const retryAfter = String(RETRY_AFTER_SECONDS);

describe("a database away, through React Router", () => {
  it("a page's loader: the root's error page says the page's sentence, status 503", async () => {
    const res = await answer(build, "/blogs");
    expect(res.status).toBe(503);
    expect(await res.text()).toContain(`<p>503: ${UNAVAILABLE.page}</p>`);
  });

  it("a page's form: 503 with the saving sentence", async () => {
    const res = await answer(build, new Request("http://site.test/join", { method: "POST", body: new URLSearchParams({ name: "Wanjiru" }) }));
    expect(res.status).toBe(503);
    expect(await res.text()).toContain(`<p>503: ${UNAVAILABLE.save}</p>`);
  });

  it("a script's data request for a page: 503", async () => {
    const res = await answer(build, "/blogs.data");
    expect(res.status).toBe(503);
    expect(await res.text()).toContain(UNAVAILABLE.page);
  });

  it("the JSON API: JSON with the sentence and Retry-After, by method", async () => {
    const read = await answer(build, "/api/series.php");
    expect(read.status).toBe(503);
    expect(read.headers.get("Retry-After")).toBe(retryAfter);
    expect(read.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await read.json()).toEqual({ ok: false, error: UNAVAILABLE.read });
    const write = await answer(build, new Request("http://site.test/api/series.php", { method: "POST", body: "{}" }));
    expect(write.status).toBe(503);
    expect(write.headers.get("Retry-After")).toBe(retryAfter);
    expect(await write.json()).toEqual({ ok: false, error: UNAVAILABLE.save });
  });

  it("another resource route: the sentence in plain text with Retry-After", async () => {
    const res = await answer(build, "/feed.txt");
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe(retryAfter);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe(UNAVAILABLE.page);
  });

  it("a route whose database answers is drawn as before", async () => {
    const res = await answer(build, "/fine");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<main>Fine</main>");
  });
});
