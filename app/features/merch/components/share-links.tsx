import { SharePanel } from "~/components/ui/share-panel";
import { trackEvent } from "~/lib/browser/track";
import { formatMoney, MERCH_MESSAGES, type MerchItem } from "../merch";

/** Sharing an item's share page: WhatsApp and X, the share sheet and Copy link. */
export function ShareLinks({ item, url }: { item: MerchItem; url: string }) {
  return (
    <SharePanel
      className="share-links"
      heading="Share this item"
      url={url}
      title={item.name}
      text={`${item.name} (${formatMoney(item.price, item.currency)}): every purchase funds street outreach in Nairobi.`}
      targets={["whatsapp", "twitter"]}
      copiedText={MERCH_MESSAGES.shareCopied}
      onShare={(action) => trackEvent(`merch.share.${action}`, { slug: item.slug })}
    />
  );
}
