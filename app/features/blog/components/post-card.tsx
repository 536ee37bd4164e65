import { useId } from "react";
import { Link } from "react-router";
import { trackEvent } from "~/lib/browser/track";
import { CoverImage } from "./cover-image";
import { coverOf, formatPostDate, machineDate, postPath, type PostCard } from "./post-format";

export function PostByline({ post }: { post: Pick<PostCard, "author" | "date"> }) {
  return (
    <p className="post-byline">
      {post.author ? <span className="post-author">{post.author}</span> : null}
      {post.author && post.date ? <span aria-hidden="true"> · </span> : null}
      {post.date ? <time dateTime={machineDate(post.date)}>{formatPostDate(post.date)}</time> : null}
    </p>
  );
}

export function TagList({ tags }: { tags: string[] }) {
  const id = useId();
  if (tags.length === 0) return null;
  // Named by a hidden word: a list may not carry aria-label.
  return (
    <>
      <span id={id} className="visually-hidden">
        Tags
      </span>
      <ul className="post-tags" aria-labelledby={id}>
      {tags.map((t) => (
        <li key={t} className="pill">
          {t}
        </li>
      ))}
      </ul>
    </>
  );
}

/** The external link to the original article, counted as blog.open_linkedin. */
export function LinkedInLink({ post, className, children }: { post: Pick<PostCard, "slug" | "title" | "url">; className?: string; children?: React.ReactNode }) {
  return (
    <a
      href={post.url}
      className={className}
      target="_blank"
      rel="noopener noreferrer"
      onClick={() => trackEvent("blog.open_linkedin", { slug: post.slug })}
    >
      {children ?? "Read on LinkedIn"}
      <span className="visually-hidden">: {post.title} (opens in a new tab)</span>
    </a>
  );
}

/** A card on /blogs: cover, tags, title, summary, author and date, and the two ways to read. */
export function PostListCard({ post, first }: { post: PostCard; first: boolean }) {
  const href = postPath(post.slug);
  return (
    <article className="post-card">
      <CoverImage src={coverOf(post)} priority={first} className="post-card-cover" />
      <div className="post-card-body">
        <TagList tags={post.tags} />
        <h2 className="post-card-title">
          <Link to={href} prefetch="intent">
            {post.title}
          </Link>
        </h2>
        <PostByline post={post} />
        {post.summary ? <p className="post-card-summary">{post.summary}</p> : null}
        <p className="post-card-actions">
          <Link to={href} className="button button-small" prefetch="intent">
            Read on site<span className="visually-hidden">: {post.title}</span>
          </Link>
          {post.url ? <LinkedInLink post={post} className="button button-ghost button-small" /> : null}
        </p>
      </div>
    </article>
  );
}

/** Up to three posts sharing tags with the one being read. */
export function RelatedPosts({ posts }: { posts: PostCard[] }) {
  if (posts.length === 0) return null;
  return (
    <section className="related" aria-labelledby="related-title">
      <h2 id="related-title">Related posts</h2>
      <ul className="related-list">
        {posts.map((p) => (
          <li key={p.slug} className="related-card">
            <CoverImage src={coverOf(p)} shown="related" />
            <div>
              <h3>
                <Link to={postPath(p.slug)} prefetch="intent">
                  {p.title}
                </Link>
              </h3>
              <PostByline post={p} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
