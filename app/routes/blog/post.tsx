import { lazy, Suspense } from "react";
import { data, isRouteErrorResponse, Link, redirect, useMatches, type ShouldRevalidateFunction } from "react-router";
import { useHydrated } from "~/components/ui/form-parts";
import {
  BLOG_MESSAGES,
  blogSource,
  DEFAULT_POLL_OPTIONS,
  DEFAULT_POLL_QUESTION,
  feedbackPollId,
  postPollId,
  relatedPosts,
} from "~/features/blog/blog";
import { clientIdOf, reactAction, subscribeAction, voteAction } from "~/routes/blog/actions.server";
import { networkSafe } from "~/lib/browser/client-action";
import { intentOf, readSubmission, replyFromError, unknownIntent } from "~/lib/forms/submission.server";
import type { Submission } from "~/lib/core/forms";
import { clientReactions, clientVotes, getPost, listPostCards, pollCounts, reactionCounts } from "~/features/blog/blog.server";
import { findPostAlias } from "~/features/blog/aliases.server";
import { seriesPath } from "~/features/blog/series";
import { seriesOfPost } from "~/features/blog/series.server";
import { replyFor, type BlogReply } from "~/features/blog/components/blog-reply";
import { BlogSubscribe } from "~/features/blog/components/blog-subscribe";
import { CoverImage } from "~/features/blog/components/cover-image";
import { embeddableArticle, postCsp } from "~/features/blog/components/embeds";
import { FeedbackPoll } from "~/features/blog/components/feedback-poll";
import { PostByline, RelatedPosts, TagList } from "~/features/blog/components/post-card";
import { PostBody } from "~/features/blog/components/post-body";
import { coverOf, postPath, toCard } from "~/features/blog/components/post-format";
import { QuestionPoll } from "~/features/blog/components/question-poll";
import { ReactionBar } from "~/features/blog/components/reaction-bar";
import { ReadingProgress } from "~/features/blog/components/reading-progress";
import { ShareBar } from "~/features/blog/components/share-bar";
import { pageMeta, publicOrigin } from "~/lib/core/meta";
import { site } from "~/lib/core/site";
import blogCss from "~/styles/blog.css?url";
import type { PageHandle } from "~/features/analytics/page-view";
import type { CacheHandle } from "~/lib/core/page-cache";
import type { Route } from "./+types/post";

// Its own chunk: posts without background audio never download the player code.
const BackgroundAudio = lazy(() => import("~/features/blog/components/background-audio"));

// Cached for first visits; a visitor with a client id sees their own reactions and votes.
export const handle = { page: "blogs.post", blogView: true, cacheSeconds: 300, personalBy: ["visitor"] } satisfies CacheHandle & PageHandle;

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: blogCss }];

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return [{ title: `${BLOG_MESSAGES.notFound} | ${site.name}` }, { name: "robots", content: "noindex" }];
  const { post } = loaderData;
  const origin = publicOrigin(matches);
  const cover = coverOf(post);
  const image = cover.startsWith("/") ? origin + cover : cover;
  const url = origin + postPath(post.slug);
  const tags = pageMeta(matches, { title: post.title, description: post.summary || post.title, path: postPath(post.slug) }).map((t) =>
    "property" in t && t.property === "og:type" ? { property: "og:type", content: "article" } : "property" in t && t.property === "og:image" ? { property: "og:image", content: image } : t,
  );
  return [
    ...tags,
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "article:published_time", content: post.date },
    ...post.tags.map((tag) => ({ property: "article:tag", content: tag })),
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        headline: post.title,
        description: post.summary || undefined,
        author: post.author ? { "@type": "Person", name: post.author } : { "@type": "Organization", name: site.name },
        datePublished: post.date,
        image,
        url,
        mainEntityOfPage: url,
        keywords: post.tags.join(", ") || undefined,
        publisher: { "@type": "Organization", name: site.name, logo: { "@type": "ImageObject", url: `${origin}/brand/logo-mark.svg` } },
      },
    },
  ];
};

export async function loader({ params, request, url, context }: Route.LoaderArgs) {
  const db = context.db;
  const post = await getPost(db, params.slug);
  if (!post) {
    // An old address of a post (the old site's slug) moves for good to the post.
    const moved = await findPostAlias(db, params.slug);
    if (moved) throw redirect(postPath(moved) + url.search, 301);
    throw data(BLOG_MESSAGES.notFound, { status: 404 });
  }
  const cid = clientIdOf(request, context);
  const [posts, reactions, chosen, poll, pollMine, feedbackMine, series] = await Promise.all([
    listPostCards(db),
    reactionCounts(db, post.slug),
    clientReactions(db, post.slug, cid),
    pollCounts(db, postPollId(post.slug)),
    clientVotes(db, postPollId(post.slug), cid),
    clientVotes(db, feedbackPollId(post.slug), cid),
    seriesOfPost(db, post),
  ]);
  return {
    post,
    related: relatedPosts(posts, post).map(toCard),
    reactions,
    chosen,
    poll: poll ?? Object.fromEntries(DEFAULT_POLL_OPTIONS.split(",").map((o) => [o, 0])),
    pollMine,
    feedbackMine,
    series,
    embedUrl: embeddableArticle(post),
    // Read by entry.server: the third parties this post's policy allows (LinkedIn, YouTube).
    csp: postCsp(post),
  };
}

/** The page's forms, by intent: react, vote, subscribe. */
export async function action({ request, context, params }: Route.ActionArgs) {
  let submission: Submission;
  try {
    submission = await readSubmission(request);
  } catch (e) {
    return replyFromError(e);
  }
  const intent = intentOf(submission);
  switch (intent) {
    case "react":
      return reactAction(request, context, params.slug, submission.fields);
    case "vote":
      return voteAction(request, context, params.slug, submission.fields);
    case "subscribe":
      return subscribeAction(request, context, submission);
    default:
      return unknownIntent(intent);
  }
}

/** A dropped connection becomes a reply the forms can word (and roll back), not an error page. */
export async function clientAction({ serverAction, request }: Route.ClientActionArgs) {
  // Which form was sent, so a failure shows on it (and on the right poll).
  const form = await request.clone().formData().catch(() => undefined);
  const intent = String(form?.get("intent") ?? "");
  const poll = intent === "vote" ? String(form?.get("id") ?? "") : undefined;
  return networkSafe<BlogReply>(serverAction, (network) => ({
    status: "error",
    intent,
    result: poll === undefined ? undefined : { poll },
    network,
    message: network ? BLOG_MESSAGES.networkError : BLOG_MESSAGES.subscribeFailed,
  }));
}

// Reactions, votes and sign-ups answer with what changed: no need to reload the post.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) => {
  const intent = formData?.get("intent");
  return intent === "react" || intent === "vote" || intent === "subscribe" ? false : defaultShouldRevalidate;
};

export default function BlogPostPage({ loaderData, actionData }: Route.ComponentProps) {
  return <PostPage key={loaderData.post.slug} data={loaderData} reply={actionData} />;
}

function PostPage({ data: d, reply }: { data: Route.ComponentProps["loaderData"]; reply: unknown }) {
  const { post } = d;
  const hydrated = useHydrated();
  const path = postPath(post.slug);
  const url = publicOrigin(useMatches()) + path;
  return (
    <>
      <ReadingProgress targetId="post" />
      <article className="post" id="post">
        <header className="container narrow post-header">
          <p className="post-back">
            <Link to="/blogs" prefetch="intent">
              <span aria-hidden="true">←</span>All posts
            </Link>
          </p>
          <CoverImage src={coverOf(post)} priority shown="post" className="post-cover" />
          <TagList tags={post.tags} />
          <h1>{post.title}</h1>
          <PostByline post={post} />
          {d.series ? (
            <p className="post-series">
              Part {d.series.part} of {d.series.of} in the series <Link to={seriesPath(d.series.seriesId)}>{d.series.title}</Link>
            </p>
          ) : null}
          <ShareBar url={url} title={post.title} slug={post.slug} />
        </header>
        <div className="container narrow post-main">
          {post.summary ? <p className="lead post-summary">{post.summary}</p> : null}
          <PostBody post={post} embedUrl={d.embedUrl} />
        </div>
      </article>

      <div className="container narrow post-after">
        <ReactionBar slug={post.slug} counts={d.reactions} chosen={d.chosen} serverReply={replyFor(reply, "react")} />

        <section className="engage" id="engage" aria-labelledby="engage-title">
          <h2 id="engage-title" className="engage-title">
            Tell us what you think
          </h2>
          <QuestionPoll
            slug={post.slug}
            pollId={postPollId(post.slug)}
            question={DEFAULT_POLL_QUESTION}
            counts={d.poll}
            mine={d.pollMine}
            serverReply={replyFor(reply, "vote", postPollId(post.slug))}
          />
          <FeedbackPoll
            slug={post.slug}
            pollId={feedbackPollId(post.slug)}
            mine={d.feedbackMine}
            serverReply={replyFor(reply, "vote", feedbackPollId(post.slug))}
          />
        </section>

        <BlogSubscribe action={path} source={blogSource(post.slug)} serverReply={replyFor(reply, "subscribe")} />
        <RelatedPosts posts={d.related} />
      </div>

      {post.audioVideoId && hydrated ? (
        <Suspense fallback={null}>
          <BackgroundAudio videoId={post.audioVideoId} />
        </Suspense>
      ) : null}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="container narrow error-page post-missing">
      <p className="eyebrow">{notFound ? "404" : "Error"}</p>
      <h1>{notFound ? BLOG_MESSAGES.notFound : "Something went wrong"}</h1>
      <p>{notFound ? "This post may have moved, or the link may be mistyped." : "Sorry, this post could not be shown. Please try again in a moment."}</p>
      <p className="actions">
        <Link to="/blogs" className="button">
          <span aria-hidden="true">← </span>Back to all posts
        </Link>
      </p>
    </section>
  );
}
