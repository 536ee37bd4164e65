import { Form } from "react-router";
import type { ActivityItem } from "~/features/activity/activity";
import { formatNairobiTime } from "~/lib/core/nairobi-time";
import { ACTIVITY_LIMIT, ACTIVITY_PATH, type ActivityParams } from "../activity-screen";
import { KeepParams } from "./keep-params";

function metaText(meta: Record<string, unknown>) {
  const entries = Object.entries(meta ?? {});
  if (entries.length === 0) return "";
  return entries
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(", ")
    .slice(0, 200);
}

/** The staff activity log, newest first (up to 200), with its type filter as a GET form. */
export function ActivityLog({
  params,
  items,
  types,
  error,
}: {
  params: ActivityParams;
  items: ActivityItem[] | null;
  types: string[];
  error?: string;
}) {
  const options = params.type && !types.includes(params.type) ? [...types, params.type].sort() : types;
  return (
    <>
      <Form method="get" action={ACTIVITY_PATH} className="dash-controls" aria-label="Activity log filter">
        <KeepParams params={params} omit={["type"]} />
        <div className="dash-control">
          <label htmlFor="activity-type">Type</label>
          <select key={`type-${params.type}`} id="activity-type" name="type" defaultValue={params.type}>
            <option value="">All types</option>
            {options.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button-small">
          Show
        </button>
        {error ? (
          <p className="field-error dash-control-error" role="alert">
            {error}
          </p>
        ) : null}
      </Form>
      {/* On a wide screen it may scroll sideways: reachable with the keyboard, and named. */}
      <div className="table-wrap" tabIndex={0} role="group" aria-label="Activity log">
        <table className="dash-table dash-cards activity-table">
          <caption>
            {params.type ? `Activity of type ${params.type}` : "All activity"}, newest first (up to {ACTIVITY_LIMIT})
          </caption>
          <thead>
            <tr>
              <th scope="col">Time (EAT)</th>
              <th scope="col">Type</th>
              <th scope="col">Message</th>
              <th scope="col">Details</th>
              <th scope="col">Address</th>
            </tr>
          </thead>
          <tbody>
            {!items || items.length === 0 ? (
              <tr>
                <td colSpan={5} className="dash-empty">
                  No activity recorded{params.type ? " of this type" : ""}.
                </td>
              </tr>
            ) : (
              items.map((a, i) => (
                <tr key={`${a.ts}-${i}`}>
                  <td data-label="Time" className="nowrap">
                    <time dateTime={a.ts}>{formatNairobiTime(a.ts)}</time>
                  </td>
                  <td data-label="Type">
                    <code>{a.type}</code>
                  </td>
                  <td className="dash-line">{a.message}</td>
                  <td className="activity-meta dash-line">{metaText(a.meta)}</td>
                  <td data-label="Address" className="nowrap">
                    {a.actorIp}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
