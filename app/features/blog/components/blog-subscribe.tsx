import { useId } from "react";
import { EmailForm, type EmailFormText } from "~/components/ui/email-form";
import { BLOG_MESSAGES } from "../blog";
import type { BlogReply } from "./blog-reply";

// A failure shows the server's words alone (the action always gives some: its error text,
// 'Something went wrong', or 'Network error' when the request never arrived).
const TEXT: EmailFormText = { success: BLOG_MESSAGES.subscribed, failure: "", pending: "Subscribing…" };

type Props = {
  /** The page's own address: its action subscribes (intent=subscribe). */
  action: string;
  /** blogs:index or blogs:{slug}. */
  source: string;
  serverReply?: BlogReply;
};

/** The blog's subscribe box: a plain form without JavaScript, no reload with it. */
export function BlogSubscribe({ action, source, serverReply }: Props) {
  const id = useId();
  return (
    <section className="blog-subscribe form-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>New posts by email</h2>
      <p className="small muted">Stories from the street and the campus, now and then. Unsubscribe any time.</p>
      <EmailForm
        action={action}
        hidden={{ intent: "subscribe", source }}
        label="Email address"
        buttonLabel="Subscribe"
        text={TEXT}
        serverReply={serverReply}
        trackAs="cta.subscribe"
        className="blog-subscribe-form"
        buttonClassName="button-lamp"
        anchor="subscribe"
      />
    </section>
  );
}
