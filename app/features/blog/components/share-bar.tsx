import { SharePanel, type ShareAction } from "~/components/ui/share-panel";
import { trackEvent } from "~/lib/browser/track";

export const LINK_COPIED = "Link copied. Paste it anywhere to share this post.";

const EVENTS: Partial<Record<ShareAction, string>> = {
  whatsapp: "blog.share.whatsapp",
  twitter: "blog.share.twitter",
  facebook: "blog.share.facebook",
  copy: "blog.copy_link",
};

/** Sharing a post: WhatsApp, X and Facebook, the share sheet and Copy link. */
export function ShareBar({ url, title, slug }: { url: string; title: string; slug: string }) {
  return (
    <SharePanel
      className="share-bar"
      heading="Share this post"
      url={url}
      title={title}
      text={title}
      targets={["whatsapp", "twitter", "facebook"]}
      copiedText={LINK_COPIED}
      onShare={(action) => {
        const name = EVENTS[action];
        if (name) trackEvent(name, { slug });
      }}
    />
  );
}
