import { EmailForm } from "~/components/ui/email-form";
import type { Reply } from "~/lib/core/forms";
import { applicationMessages } from "../messages";

/** Posts to the home page's action: `/?index` is the index route's own URL. */
export function HeroForm({ serverReply }: { serverReply?: Reply }) {
  return (
    <EmailForm
      action="/?index"
      label="Your email: we will tell you how to get involved"
      buttonLabel="Get involved"
      text={applicationMessages.hero}
      serverReply={serverReply}
      className="hero-form form-card"
      buttonClassName="button-lamp"
      trackAs="form"
      anchor="get-involved"
    />
  );
}
