import { useState } from "react";
import { shareOrCopy, whatsAppShareUrl } from "~/lib/browser/share";

export const INVITE_COPIED =
  "Invite link copied! Paste it into a chat or a post to invite your friends to the evening.";

type Props = { url: string; text: string; statusId: string };

/**
 * Without JavaScript a link to WhatsApp's share intent; with it the device share sheet,
 * falling back to copying the link. Cancelling the share sheet is silent.
 */
export function ShareInvite({ url, text, statusId }: Props) {
  const [status, setStatus] = useState<{ tone: "success" | "error"; text: string } | null>(null);

  async function share(e: React.MouseEvent<HTMLAnchorElement>) {
    e.preventDefault();
    setStatus(null);
    const done = await shareOrCopy({ title: document.title, text, url });
    if (done === "shared" || done === "cancelled") return;
    setStatus(
      done
        ? { tone: "success", text: INVITE_COPIED }
        : { tone: "error", text: `We could not copy the link. Please share this page's address with your friends: ${url}` },
    );
  }

  return (
    <>
      <a
        className="button button-ghost share-invite"
        href={whatsAppShareUrl(`${text} ${url}`)}
        target="_blank"
        rel="noopener noreferrer"
        onClick={share}
        aria-describedby={statusId}
      >
        Share invite
      </a>
      <p id={statusId} className={status ? `form-status form-status-${status.tone}` : "form-status"} role="status" aria-live="polite">
        {status?.text}
      </p>
    </>
  );
}
