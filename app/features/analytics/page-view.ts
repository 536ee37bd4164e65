/** `blogView`: the route shows the blog post named by its `slug` param; a view is counted. */
export type PageHandle = { page?: string; blogView?: boolean };

/** Where a blog reader came from: a share page or link (src=share / utm_source=share), else the site. */
export const blogViewSource = (url: URL): "site" | "share" =>
  url.searchParams.get("src") === "share" || url.searchParams.get("utm_source") === "share" ? "share" : "site";

