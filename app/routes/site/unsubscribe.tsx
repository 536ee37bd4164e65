import { Form, data } from "react-router";
import { UnsubscribeTokenSchema } from "~/features/newsletter/newsletter.schema";
import { findSubscriberByToken, maskEmail, unsubscribe } from "~/features/newsletter/newsletter.server";
import { readForm } from "~/lib/forms/submission.server";
import { asRouteError } from "~/lib/http/http.server";
import { pageMeta } from "~/lib/core/meta";
import type { Route } from "./+types/unsubscribe";

export const handle = { hydrate: false, page: "unsubscribe" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Unsubscribe", description: "Stop receiving our emails.", path: "/unsubscribe", noindex: true });

function tokenFrom(value: unknown) {
  const parsed = UnsubscribeTokenSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const token = tokenFrom(url.searchParams.get("token"));
  const sub = token ? await findSubscriberByToken(context.db, token) : undefined;
  if (!token || !sub) return data({ state: "unknown" as const, token: "", email: "" }, 404);
  return { state: sub.status === "active" ? ("active" as const) : ("done" as const), token, email: maskEmail(sub.email) };
}

// Also answers RFC 8058 one-click requests from mail apps (token in the query string).
export async function action({ request, url, context }: Route.ActionArgs) {
  const form = await asRouteError(() => readForm(request, 4096));
  const token = tokenFrom(form.get("token") ?? url.searchParams.get("token"));
  const ok = token ? await unsubscribe(context.db, token) : false;
  return ok ? { state: "done" as const } : data({ state: "unknown" as const }, 404);
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData?.state ?? loaderData.state;
  return (
    <section className="section">
      <div className="container narrow">
        <h1>Unsubscribe</h1>
        {state === "unknown" ? (
          <p>This unsubscribe link is not valid. It may be incomplete: please use the whole link from the email.</p>
        ) : state === "done" ? (
          <p role="status">
            You are unsubscribed{loaderData.email ? ` (${loaderData.email})` : ""}. You will get no more updates from us.
            Changed your mind? Subscribe again at the bottom of any page.
          </p>
        ) : (
          <Form method="post">
            <input type="hidden" name="token" value={loaderData.token} />
            <p>Stop sending updates to {loaderData.email}?</p>
            <button type="submit">Unsubscribe</button>
          </Form>
        )}
      </div>
    </section>
  );
}
