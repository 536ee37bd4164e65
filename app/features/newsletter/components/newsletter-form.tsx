import { EmailForm } from "~/components/ui/email-form";
import type { Reply } from "~/lib/core/forms";
import { DataNotice } from "~/components/ui/data-notice";
import { newsletterMessages, type NewsletterVariant } from "../messages";

type Props = {
  variant: NewsletterVariant;
  source: string;
  /** Where the form posts; /newsletter serves every box, a page may post to itself. */
  action?: string;
  serverReply?: Reply;
  label?: string;
  buttonLabel?: string;
  className?: string;
  /** More hidden fields (an `intent` when the page has several forms). */
  hidden?: Record<string, string>;
};

const TRACK_AS: Record<NewsletterVariant, string> = {
  footer: "footer.subscribe",
  about: "cta.subscribe",
  event: "cta.subscribe",
  vespers: "cta.subscribe",
};

export function NewsletterForm({
  variant,
  source,
  action = "/newsletter",
  serverReply,
  label = "Email address",
  buttonLabel = "Subscribe",
  className = "newsletter-form",
  hidden = {},
}: Props) {
  return (
    <EmailForm
      action={action}
      hidden={{ ...hidden, source, variant }}
      trackAs={TRACK_AS[variant]}
      label={label}
      buttonLabel={buttonLabel}
      text={newsletterMessages[variant]}
      serverReply={serverReply}
      className={className}
      notice={<DataNotice form="newsletter" />}
      // A page's own box (not the footer's, which goes to /newsletter) reopens at its result.
      anchor={action === "/newsletter" ? undefined : `subscribe-${variant}`}
    />
  );
}
