import { EmailForm } from "~/components/ui/email-form";
import type { FormReply } from "~/lib/forms";
import { newsletterMessages, type NewsletterVariant } from "../messages";

type Props = {
  variant: NewsletterVariant;
  source: string;
  /** Where the form posts; /newsletter serves every box, a page may post to itself. */
  action?: string;
  serverReply?: FormReply;
  label?: string;
  buttonLabel?: string;
  className?: string;
};

export function NewsletterForm({
  variant,
  source,
  action = "/newsletter",
  serverReply,
  label = "Email address",
  buttonLabel = "Subscribe",
  className = "newsletter-form",
}: Props) {
  return (
    <EmailForm
      action={action}
      hidden={{ source, variant }}
      label={label}
      buttonLabel={buttonLabel}
      text={newsletterMessages[variant]}
      serverReply={serverReply}
      className={className}
    />
  );
}
