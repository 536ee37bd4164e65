import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import type { FileReport, ImportRun } from "~/features/legacy-import/import-report";
import { listImportRuns } from "~/features/legacy-import/import-runs.server";
import { staffOnly } from "~/features/admin/staff-auth.server";
import { formatNairobiTimeEat } from "~/lib/core/nairobi-time";
import dashboardsCss from "~/styles/dashboards.css?url";
import type { Route } from "./+types/imports";

export const handle: StaffHandle = {
  page: "admin.imports",
  title: "Old site imports",
  description: "Each import of the old site: per file, what came in, what staff must review, what was refused or cut.",
};

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: dashboardsCss }];

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

export async function loader({ request, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, async () => ({ runs: await listImportRuns(context.db) }));
}

const at = (line: number) => (line > 0 ? `Line ${line}` : "The file");

function FileSection({ file, runId }: { file: FileReport; runId: string }) {
  const id = `${runId}-${file.file.replace(/[^a-z0-9]+/gi, "-")}`;
  return (
    <section aria-labelledby={id} className="import-file">
      <h3 id={id}>
        {file.file} <span className="muted">({file.records})</span>
      </h3>
      <p>
        {file.missing
          ? "Not in the folder: nothing to import."
          : `${file.added} added, ${file.skipped} already here, ${(file.review ?? []).length} for review, ${file.refused.length} refused, ${(file.cut ?? []).length} cut.`}
      </p>
      {(file.review ?? []).length > 0 ? (
        <>
          <h4>Imported for staff to review</h4>
          <ul>
            {file.review.map((r, i) => (
              <li key={i}>
                {at(r.line)}: {r.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {file.refused.length > 0 ? (
        <>
          <h4>Refused</h4>
          <ul>
            {file.refused.map((r, i) => (
              <li key={i}>
                {at(r.line)}: {r.reason}
                {r.raw ? (
                  <pre className="order-notes">
                    <code>{r.raw}</code>
                  </pre>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {(file.cut ?? []).length > 0 ? (
        <>
          <h4>Values cut (their full text)</h4>
          <ul>
            {file.cut.map((c, i) => (
              <li key={i}>
                {at(c.line)}: {c.what}
                <pre className="order-notes">
                  <code>{c.full}</code>
                </pre>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {file.notes.length > 0 ? (
        <>
          <h4>Notes</h4>
          <ul>
            {file.notes.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function Run({ run }: { run: ImportRun }) {
  return (
    <section aria-labelledby={`run-${run.id}`} className="dash-card">
      <h2 id={`run-${run.id}`}>
        Import of <time dateTime={run.startedAt}>{formatNairobiTimeEat(run.startedAt)}</time>
      </h2>
      <p className="muted">
        From {run.folder}: {run.added} added, {run.refused} refused.
      </p>
      {run.files.map((f) => (
        <FileSection key={f.file} file={f} runId={run.id} />
      ))}
    </section>
  );
}

export default function AdminImports({ loaderData: d }: Route.ComponentProps) {
  if (!d) return null;
  return (
    <div className="dashboard">
      <p className="dash-intro muted">
        Each run of <code>npm run import:legacy</code>, newest first. Orders today&rsquo;s rules would refuse are imported as pending with
        &lsquo;NEEDS REVIEW&rsquo; in their staff notes; lines that could not be read are kept here as written.
      </p>
      {d.runs.length === 0 ? <p>The old site has not been imported.</p> : d.runs.map((r) => <Run key={r.id} run={r} />)}
    </div>
  );
}
