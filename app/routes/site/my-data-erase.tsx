import { Form, data } from "react-router";
import { openMyDataLink, sendEraseRequest } from "~/features/people/data-requests.server";
import { MY_DATA_PATH } from "~/features/people/people";
import { asRouteError } from "~/lib/http/http.server";
import { pageMeta } from "~/lib/core/meta";
import { readForm } from "~/lib/forms/submission.server";
import type { Route } from "./+types/my-data-erase";

export const handle = { hydrate: false, page: "privacy.my-data-erase" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Erase your data", description: "Send your request to erase your data.", path: `${MY_DATA_PATH}/erase`, noindex: true });

const tokenOf = (v: unknown) => (typeof v === "string" ? v.slice(0, 100) : "");

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const token = tokenOf(url.searchParams.get("token"));
  const link = token ? await openMyDataLink(context.db, token) : { state: "unknown" as const };
  if (link.state !== "erase") return data({ state: "unknown" as const, token: "" }, 404);
  return { state: link.sent ? ("sent" as const) : ("ask" as const), token };
}

/** The second step happens on a press, never on opening the link (mail scanners open links). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await asRouteError(() => readForm(request, 4096));
  const ok = await sendEraseRequest(context.db, tokenOf(form.get("token")));
  return ok ? { state: "sent" as const } : data({ state: "unknown" as const }, 404);
}

export default function MyDataErase({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData?.state ?? loaderData.state;
  return (
    <section className="section">
      <div className="container narrow">
        <h1>Erase your data</h1>
        {state === "unknown" ? (
          <p>
            This link is not valid or has expired. Ask for a new one at <a href={MY_DATA_PATH}>{MY_DATA_PATH}</a>.
          </p>
        ) : state === "sent" ? (
          <p role="status">Your request is with our staff. They will erase your data and keep only what the law requires for our accounts (order references, amounts and M-Pesa receipts), without your name, email or phone.</p>
        ) : (
          <Form method="post">
            <input type="hidden" name="token" value={loaderData.token} />
            <p>Send your request to erase everything we hold about you to our staff?</p>
            <button type="submit">Send my request to erase</button>
          </Form>
        )}
      </div>
    </section>
  );
}
