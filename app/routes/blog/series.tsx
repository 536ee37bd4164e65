import { data, isRouteErrorResponse, Link } from "react-router";
import { PostListCard } from "~/features/blog/components/post-card";
import { toCard } from "~/features/blog/components/post-format";
import { seriesPath } from "~/features/blog/series";
import { getSeriesPage } from "~/features/blog/series.server";
import { pageMeta } from "~/lib/core/meta";
import blogCss from "~/styles/blog.css?url";
import type { Route } from "./+types/series";

// The same for every visitor: kept for a minute, emptied when staff save posts or series.
export const handle = { hydrate: false, page: "blogs.series", cacheSeconds: 60 };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: blogCss }];

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData
    ? pageMeta(matches, {
        title: loaderData.series.title,
        description: loaderData.series.summary || `A series of ${loaderData.posts.length} posts.`,
        path: seriesPath(loaderData.series.seriesId),
      })
    : [{ title: "Series not found" }, { name: "robots", content: "noindex" }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const page = await getSeriesPage(context.db, params.id);
  if (!page) throw data("Series not found", { status: 404 });
  return { series: page.series, posts: page.posts.map(toCard) };
}

/** /blogs/series/{id}: a series and its posts, in reading order. */
export default function SeriesPage({ loaderData }: Route.ComponentProps) {
  const { series, posts } = loaderData;
  return (
    <>
      <section className="hero blog-hero" aria-labelledby="series-title">
        <div className="container">
          <p className="eyebrow">
            <Link to="/blogs">Blog</Link> · Series
          </p>
          <h1 id="series-title">{series.title}</h1>
          {series.summary ? <p className="lead">{series.summary}</p> : null}
        </div>
      </section>
      <section className="section blog-list-section" aria-label={`Posts in ${series.title}`}>
        <div className="container">
          {posts.length === 0 ? (
            <p className="blog-empty">No posts in this series yet.</p>
          ) : (
            <ol className="post-grid series-posts">
              {posts.map((post, i) => (
                <li key={post.slug}>
                  <p className="eyebrow">Part {i + 1}</p>
                  <PostListCard post={post} first={i === 0} />
                </li>
              ))}
            </ol>
          )}
        </div>
      </section>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="container narrow error-page">
      <p className="eyebrow">{notFound ? "404" : "Error"}</p>
      <h1>{notFound ? "Series not found" : "Something went wrong"}</h1>
      <p className="actions">
        <Link to="/blogs" className="button">
          <span aria-hidden="true">← </span>Back to all posts
        </Link>
      </p>
    </section>
  );
}
