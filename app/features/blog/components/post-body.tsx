import { BLOG_MESSAGES, type BlogPost } from "../blog";
import { LinkedInLink } from "./post-card";

type Props = { post: BlogPost; embedUrl?: string };

/**
 * The post itself: its on-site HTML (sanitised by the server when saved and when read), or
 * the original article in a frame with a link to it, since the source site may refuse frames.
 */
export function PostBody({ post, embedUrl }: Props) {
  if (post.contentHtml) {
    return <div className="prose post-content" dangerouslySetInnerHTML={{ __html: post.contentHtml }} />;
  }
  if (!post.url) return null;
  return (
    <div className="post-embed">
      {embedUrl ? (
        <>
          <iframe
            className="post-embed-frame"
            src={embedUrl}
            title={`Original article: ${post.title}`}
            loading="lazy"
            referrerPolicy="strict-origin-when-cross-origin"
            sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox"
          />
          <p className="post-embed-hint">{BLOG_MESSAGES.embedHint}</p>
        </>
      ) : null}
      <p>
        <LinkedInLink post={post} className="button button-lamp" />
      </p>
    </div>
  );
}
