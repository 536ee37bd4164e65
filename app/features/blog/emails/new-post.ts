import { renderEmail } from "~/lib/mail/email-layout";
import { formatDateInWords } from "~/lib/core/nairobi-time";
import { site } from "~/lib/core/site";
import type { BlogPost } from "../blog";

export function newPostEmail(post: BlogPost, postUrl: string, unsubscribeUrl: string) {
  return renderEmail({
    subject: `New on the ${site.shortName} blog: ${post.title}`,
    heading: post.title,
    paragraphs: [
      ...(post.author ? [`By ${post.author}${post.date ? ` · ${formatDateInWords(post.date) || post.date}` : ""}`] : []),
      post.summary || "A new story from the streets of Nairobi.",
    ],
    cta: { label: "Read the post", url: postUrl },
    footer: `Unsubscribe: ${unsubscribeUrl}`,
    footerLink: { label: "Unsubscribe", url: unsubscribeUrl },
  });
}
