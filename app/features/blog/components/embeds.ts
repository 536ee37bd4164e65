import type { BlogPost } from "../blog";

/** The shape entry.server reads from a loader's `csp` field (lib/security-headers.server). */
export type PostCsp = { scriptSrc: string[]; frameSrc: string[] };

/** The two third parties a post may use; the page's policy allows them only where used. */
export const LINKEDIN_ORIGIN = "https://www.linkedin.com";
export const YOUTUBE_ORIGIN = "https://www.youtube.com";
export const YOUTUBE_API = `${YOUTUBE_ORIGIN}/iframe_api`;
const YOUTUBE_SCRIPTS = [YOUTUBE_ORIGIN, "https://s.ytimg.com"];
/** The players a post's own video frames use (the sanitiser rewrites YouTube and Vimeo to them). */
export const VIDEO_FRAME_ORIGINS = ["https://www.youtube-nocookie.com", "https://player.vimeo.com"] as const;

/** The video players the post's (sanitised) HTML frames. */
const videoFramesIn = (html: string | undefined) =>
  VIDEO_FRAME_ORIGINS.filter((o) => !!html && html.includes(`<iframe src="${o}/`));

/** A post without its own HTML shows the original in a frame, when it lives on LinkedIn. */
export function embeddableArticle(post: Pick<BlogPost, "contentHtml" | "url">): string | undefined {
  if (post.contentHtml || !post.url) return undefined;
  try {
    return new URL(post.url).origin === LINKEDIN_ORIGIN ? post.url : undefined;
  } catch {
    return undefined;
  }
}

/** The extra policy sources a post page needs (read by entry.server from the loader data). */
export function postCsp(post: Pick<BlogPost, "contentHtml" | "url" | "audioVideoId">): PostCsp {
  const frameSrc: string[] = [];
  const scriptSrc: string[] = [];
  if (embeddableArticle(post)) frameSrc.push(LINKEDIN_ORIGIN);
  if (post.audioVideoId) {
    frameSrc.push(YOUTUBE_ORIGIN);
    scriptSrc.push(...YOUTUBE_SCRIPTS);
  }
  frameSrc.push(...videoFramesIn(post.contentHtml));
  return { frameSrc, scriptSrc };
}
