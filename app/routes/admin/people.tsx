import { Form, useNavigation } from "react-router";
import { z } from "zod";
import { data } from "react-router";
import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { ERASE_TAKES, PERSON_QUERY_MAX, personKeyOf, type PersonFound } from "~/features/people/people";
import { erasePerson, findPerson, keepApplication } from "~/features/people/people.server";
import { pendingEraseRequests } from "~/features/people/data-requests.server";
import { retentionStatus } from "~/features/people/retention.server";
import { periodWords } from "~/features/people/retention";
import { formatNairobiTimeEat } from "~/lib/core/nairobi-time";
import { requireStaff, staffOnly } from "~/features/admin/staff-auth.server";
import { DomainError } from "~/lib/core/domain-error";
import type { Reply } from "~/lib/core/forms";
import type { Actor } from "~/lib/core/actor";
import { asRouteError } from "~/lib/http/http.server";
import { intentOf, parseSubmission, readForm, replyFromError, submissionOf } from "~/lib/forms/submission.server";
import type { Submission } from "~/lib/core/forms";
import type { Route } from "./+types/people";

export const PEOPLE_PATH = "/admin/people";
const exportHref = (q: string) => `${PEOPLE_PATH}/export?q=${encodeURIComponent(q)}`;
const screenHref = (q: string) => (q ? `${PEOPLE_PATH}?q=${encodeURIComponent(q)}` : PEOPLE_PATH);

export const handle: StaffHandle = {
  page: "admin.people",
  title: "People's data",
  description: "Find, export and erase one person's data.",
};

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

type Loaded = {
  q: string;
  found: PersonFound | null;
  error: string | null;
  canErase: boolean;
  requests: { email: string; confirmedAt: string }[];
  retention: Awaited<ReturnType<typeof retentionStatus>>;
};

export async function loader({ request, url, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, async (): Promise<Loaded> => {
    const q = (url.searchParams.get("q") ?? "").trim().slice(0, PERSON_QUERY_MAX);
    const requests = await pendingEraseRequests(context.db);
    const retention = await retentionStatus(context.db);
    if (!q) return { q, found: null, error: null, canErase: false, requests, retention };
    try {
      const found = await findPerson(context.db, q);
      return { q, found, error: null, canErase: found.key.kind !== "name" && found.holdings.length > 0, requests, retention };
    } catch (e) {
      if (e instanceof DomainError) return { q, found: null, error: e.message, canErase: false, requests, retention };
      throw e;
    }
  });
}

type EraseResult = { confirm?: "erase"; q: string };

const KeepSchema = z.object({
  q: z.string().trim().max(PERSON_QUERY_MAX).default(""),
  applicationId: z.coerce.number({ error: "Unknown application." }).int().positive("Unknown application."),
  keep: z.enum(["yes", "no"], { error: "Say whether to keep it." }),
});

const EraseSchema = z.object({
  q: z.string().trim().min(1, "Search for the person first.").max(PERSON_QUERY_MAX),
  confirmed: z.string().optional(),
});

/** Erase asks first (its question names what goes); the second press, confirmed=yes, erases. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaff(request, context, PEOPLE_PATH);
  const submission = submissionOf(await asRouteError(() => readForm(request, 4096)));
  const intent = intentOf(submission);
  try {
    switch (intent) {
      case "keep":
        return await keepAction(context, submission, actor);
      default:
        return await eraseAction(context, submission, actor);
    }
  } catch (e) {
    return replyFromError<EraseResult>(e, {}, { asMessage: true });
  }
}

const invalid = (parsed: { first: string | undefined }) =>
  data<Reply<EraseResult>>({ status: "error", message: parsed.first ?? "Invalid request." }, 400);

/** Keep a join application past its retention period, or let it follow the period again. */
async function keepAction(context: Route.ActionArgs["context"], submission: Submission, actor: Actor) {
  const parsed = parseSubmission(submission, KeepSchema, "fields");
  if (!parsed.ok) return invalid(parsed);
  const { q, applicationId, keep } = parsed.value;
  await keepApplication(context.db, applicationId, keep === "yes", actor);
  const message = keep === "yes" ? "Kept: this application stays past the retention period." : "This application follows the retention period again.";
  return data<Reply<EraseResult>>({ status: "success", intent: "keep", message, result: { q } }, 200);
}

async function eraseAction(context: Route.ActionArgs["context"], submission: Submission, actor: Actor) {
  const parsed = parseSubmission(submission, EraseSchema, "fields");
  if (!parsed.ok) return invalid(parsed);
  const { q, confirmed } = parsed.value;
  if (confirmed !== "yes") {
    const found = await findPerson(context.db, q);
    const key = personKeyOf(q);
    const question = `Erase everything held about ${key?.kind === "phone" ? "this phone number" : "this address"}? ${found.holdings.length} record(s) and ${found.files.length} file(s).`;
    return data<Reply<EraseResult>>({ status: "success", intent: "erase", message: question, result: { confirm: "erase", q } }, 200);
  }
  const c = await erasePerson(context.db, q, actor, "staff screen");
  const message = `Erased. ${c.ordersKept} order(s) kept without the person; ${c.applications} application(s) and ${c.subscriptions} subscription(s) removed; ${c.mails} mail(s) emptied; ${c.files} file(s) deleted.`;
  return data<Reply<EraseResult>>({ status: "success", intent: "erase", message, result: { q } }, 200);
}

export default function AdminPeople({ loaderData: d, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (!d) return null;
  const reply = actionData as Reply<EraseResult> | undefined;
  const asking = reply?.result?.confirm === "erase" && reply.result.q === d.q;
  const busy = navigation.state !== "idle";
  return (
    <div className="people-screen">
      <Form method="get" action={PEOPLE_PATH} className="order-filters" role="search" aria-label="People">
        <label htmlFor="person-search">Find a person</label>
        <p className="field-hint" id="person-search-hint">
          By email address, phone number (any spelling) or name.
        </p>
        <div className="order-search-row">
          <input
            key={d.q}
            id="person-search"
            type="search"
            name="q"
            defaultValue={d.q}
            aria-describedby="person-search-hint"
            maxLength={PERSON_QUERY_MAX}
            autoComplete="off"
            enterKeyHint="search"
          />
          <button type="submit" className="button-small">
            Find
          </button>
        </div>
      </Form>

      {reply?.message && !asking ? (
        <p className={`admin-message admin-message-${reply.status}`} role="status">
          {reply.message}
        </p>
      ) : null}
      {d.error ? (
        <p className="admin-message admin-message-error" role="alert">
          {d.error}
        </p>
      ) : null}

      {d.requests.length ? (
        <section aria-labelledby="erase-requests">
          <h2 id="erase-requests">Requests to erase, to confirm</h2>
          <p className="muted">Each person confirmed from their own mailbox. Open one, check what is held, and erase it.</p>
          <ul>
            {d.requests.map((r) => (
              <li key={r.email}>
                <a href={screenHref(r.email)}>{r.email}</a> (asked {formatNairobiTimeEat(r.confirmedAt)})
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {d.found ? <Holdings found={d.found} q={d.q} /> : null}

      {d.found && d.found.holdings.length > 0 ? (
        <section aria-labelledby="person-actions">
          <h2 id="person-actions">Export or erase</h2>
          {d.canErase ? (
            <>
              <p>
                <a href={exportHref(d.q)} className="button button-small" download>
                  Download everything (ZIP)
                </a>
              </p>
              <Form method="post" action={screenHref(d.q)}>
                <input type="hidden" name="intent" value="erase" />
                <input type="hidden" name="q" value={d.q} />
                {asking ? (
                  <div className="confirm-box" role="group" aria-labelledby="erase-confirm">
                    <p id="erase-confirm">
                      <strong>{reply!.message}</strong>
                    </p>
                    <ul>
                      {d.found.holdings.map((h, i) => (
                        <li key={i}>
                          {h.place} {h.ref}: {h.holds.join(", ")}
                        </li>
                      ))}
                      {d.found.files.map((f) => (
                        <li key={f}>File {f}</li>
                      ))}
                    </ul>
                    <p>{ERASE_TAKES}</p>
                    <span className="confirm-actions">
                      <button type="submit" name="confirmed" value="yes" className="button-small button-reject-now" disabled={busy}>
                        Yes, erase this person
                      </button>
                      <a href={screenHref(d.q)} className="button button-small button-ghost">
                        Cancel
                      </a>
                    </span>
                  </div>
                ) : (
                  <button type="submit" className="button-small button-reject" disabled={busy}>
                    Erase this person…
                  </button>
                )}
              </Form>
            </>
          ) : (
            <p className="muted">Search by the person&rsquo;s email address or phone number to export or erase.</p>
          )}
        </section>
      ) : null}

      <section aria-labelledby="retention-title">
        <h2 id="retention-title">Retention rules</h2>
        <p className="muted">Run daily. Periods are set with the RETENTION_*_DAYS settings.</p>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">Kept for</th>
              <th scope="col">Last run</th>
              <th scope="col">Removed then</th>
            </tr>
          </thead>
          <tbody>
            {d.retention.map((r) => (
              <tr key={r.key}>
                <td data-label="What">{r.what}</td>
                <td data-label="Kept for">
                  {periodWords(r.days)} {r.after}
                </td>
                <td data-label="Last run">{r.ranAt ? formatNairobiTimeEat(r.ranAt) : "Not yet"}</td>
                <td data-label="Removed then">{r.removed ?? "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/** Applications are deleted after their period unless staff keep one: the control, JS off too. */
function KeepForm({ q, application }: { q: string; application: { id: number; kept: boolean } }) {
  return (
    <Form method="post" action={`${PEOPLE_PATH}?q=${encodeURIComponent(q)}`} className="inline-form">
      <input type="hidden" name="intent" value="keep" />
      <input type="hidden" name="q" value={q} />
      <input type="hidden" name="applicationId" value={application.id} />
      <input type="hidden" name="keep" value={application.kept ? "no" : "yes"} />
      {application.kept ? <span> · kept past the retention period</span> : null}{" "}
      <button type="submit" className="button-small button-ghost">
        {application.kept ? "Stop keeping" : "Keep past the retention period"}
      </button>
    </Form>
  );
}

function Holdings({ found, q }: { found: PersonFound; q: string }) {
  if (!found.holdings.length) return <p className="admin-message admin-message-info">Nothing on record for that search.</p>;
  return (
    <section aria-labelledby="person-holdings">
      <h2 id="person-holdings">What the site holds</h2>
      <table className="data-table">
        <caption className="visually-hidden">Records that hold this person&rsquo;s data</caption>
        <thead>
          <tr>
            <th scope="col">Where</th>
            <th scope="col">Record</th>
            <th scope="col">Holds</th>
            <th scope="col">About it</th>
          </tr>
        </thead>
        <tbody>
          {found.holdings.map((h, i) => (
            <tr key={i}>
              <td data-label="Where">{h.place}</td>
              <td data-label="Record">{h.ref}</td>
              <td data-label="Holds">{h.holds.join(", ")}</td>
              <td data-label="About it">
                {h.detail}
                {h.application ? <KeepForm q={q} application={h.application} /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {found.files.length ? <p>Files: {found.files.join(", ")}</p> : null}
    </section>
  );
}
