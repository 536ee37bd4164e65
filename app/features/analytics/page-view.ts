/** `blogView`: the route shows the blog post named by its `slug` param; a view is counted. */
/**
 * What a route's `handle` tells the page-view count: its name, whether it is a blog post, and
 * (`path`) the path to record instead of the address, for private pages whose address names
 * one person's order.
 */
export type PageHandle = { page?: string; blogView?: boolean; path?: string };

/** Where a blog reader came from: a share page or link (src=share / utm_source=share), else the site. */
export const blogViewSource = (url: URL): "site" | "share" =>
  url.searchParams.get("src") === "share" || url.searchParams.get("utm_source") === "share" ? "share" : "site";

