import { Form, data } from "react-router";
import { requestMyData } from "~/features/people/data-requests.server";
import { LINK_HOURS, MY_DATA_PATH } from "~/features/people/people";
import { MyDataSchema } from "~/features/people/people.schema";
import { asRouteError, clientAddress } from "~/lib/http/http.server";
import { pageMeta } from "~/lib/core/meta";
import { consume, tooManyMessage } from "~/lib/server/rate-limit.server";
import { readForm } from "~/lib/forms/submission.server";
import type { Route } from "./+types/my-data";

export const handle = { hydrate: false, page: "privacy.my-data" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Your data", description: "Ask for a copy of your data, or for it to be erased.", path: MY_DATA_PATH, noindex: true });

export const MY_DATA_SENT = `If we hold anything for that address, a link valid for ${LINK_HOURS} hours is on its way to it. Nothing is shown here: only that mailbox can open it.`;

/** Five requests per address in ten minutes: each may send a mail. */
const RULE = { points: 5, durationSeconds: 600 };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await asRouteError(() => readForm(request, 4096));
  const parsed = MyDataSchema.safeParse({ email: form.get("email") ?? "", kind: form.get("kind") ?? undefined });
  if (!parsed.success) return data({ ok: false as const, message: parsed.error.issues[0]?.message ?? "Please check the form." }, 400);
  const limited = await consume("my-data", RULE, clientAddress(context));
  if (!limited.ok) return data({ ok: false as const, message: tooManyMessage(limited.retryAfterSeconds) }, 429);
  await requestMyData(context.db, parsed.data);
  return { ok: true as const, message: MY_DATA_SENT };
}

export default function MyData({ actionData }: Route.ComponentProps) {
  return (
    <section className="section">
      <div className="container narrow">
        <h1>Your data</h1>
        <p>
          Type the email address you gave us. We mail a link to that address only: it downloads everything we hold about you
          as one ZIP file, or sends your request to erase it to our staff. See <a href="/privacy">our privacy notice</a>.
        </p>
        {actionData?.ok ? (
          <p role="status">{actionData.message}</p>
        ) : (
          <Form method="post" action={MY_DATA_PATH} className="form-card">
            {actionData && !actionData.ok ? (
              <p role="alert" className="form-error">
                {actionData.message}
              </p>
            ) : null}
            <label htmlFor="my-data-email">Email address</label>
            <input id="my-data-email" type="email" name="email" required autoComplete="email" maxLength={254} />
            <fieldset>
              <legend>What would you like?</legend>
              <label>
                <input type="radio" name="kind" value="export" defaultChecked /> A copy of my data
              </label>
              <label>
                <input type="radio" name="kind" value="erase" /> Erase my data
              </label>
            </fieldset>
            <button type="submit">Send me the link</button>
          </Form>
        )}
      </div>
    </section>
  );
}
