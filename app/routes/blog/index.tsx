import { type ShouldRevalidateFunction } from "react-router";
import { BLOG_INDEX_SOURCE, BLOG_MESSAGES } from "~/features/blog/blog";
import { subscribeAction } from "~/routes/blog/actions.server";
import { listPostCards } from "~/features/blog/blog.server";
import { replyFor, type BlogReply } from "~/features/blog/components/blog-reply";
import { networkSafe } from "~/lib/browser/client-action";
import { BlogSubscribe } from "~/features/blog/components/blog-subscribe";
import { PostListCard } from "~/features/blog/components/post-card";
import { toCard } from "~/features/blog/components/post-format";
import { pageMeta } from "~/lib/core/meta";
import { site } from "~/lib/core/site";
import blogCss from "~/styles/blog.css?url";
import type { Route } from "./+types/index";

// The same for every visitor: kept in memory for a minute, emptied at once when staff save posts.
export const handle = { page: "blogs", cacheSeconds: 60 };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: blogCss }];

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Blog",
    description: `Stories from ${site.name}: street vespers, campus mission weeks and the volunteers behind them.`,
    path: "/blogs",
  });

export async function loader({ context }: Route.LoaderArgs) {
  const posts = await listPostCards(context.db);
  return { posts: posts.map(toCard) };
}

/** The page's one form: the subscribe box. */
export async function action({ request, context }: Route.ActionArgs) {
  return subscribeAction(request, context);
}

/** A dropped connection becomes a reply the box can word, instead of an error page. */
export const clientAction = ({ serverAction }: Route.ClientActionArgs) =>
  networkSafe<BlogReply>(serverAction, (network) => ({
    status: "error",
    intent: "subscribe",
    network,
    message: network ? BLOG_MESSAGES.networkError : BLOG_MESSAGES.subscribeFailed,
  }));

// A sign-up changes nothing on the page: no need to reload the list (nor to fail offline).
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "subscribe" ? false : defaultShouldRevalidate;

export default function BlogIndex({ loaderData, actionData }: Route.ComponentProps) {
  const { posts } = loaderData;
  return (
    <>
      <section className="hero blog-hero" aria-labelledby="blog-title">
        <div className="container">
          <p className="eyebrow">Blog</p>
          <h1 id="blog-title">Stories from the street</h1>
          <p className="lead">Notes from vespers evenings, campus weeks and the volunteers who make them happen.</p>
        </div>
      </section>
      <section className="section blog-list-section" aria-label="Posts">
        <div className="container">
          {posts.length === 0 ? (
            <p className="blog-empty">No posts yet. Check back soon.</p>
          ) : (
            <ul className="post-grid">
              {posts.map((post, i) => (
                <li key={post.slug}>
                  <PostListCard post={post} first={i === 0} />
                </li>
              ))}
            </ul>
          )}
          <BlogSubscribe action="/blogs" source={BLOG_INDEX_SOURCE} serverReply={replyFor(actionData, "subscribe")} />
        </div>
      </section>
    </>
  );
}
