import { formatNairobiTime } from "~/lib/core/nairobi-time";
import { SUBSCRIBER_LIMIT, type Block, type SubscriberRow } from "../engagement-screen";
import { ErrorBanner } from "~/components/ui/error-banner";

export function SubscribersTable({ block }: { block: Block<SubscriberRow[]> }) {
  if (!block.ok) return <ErrorBanner block message={block.error} />;
  if (block.rows.length === 0) return <p className="dash-empty">No one has subscribed yet.</p>;
  return (
    <div className="table-wrap" tabIndex={0} role="group" aria-label="Subscribers">
      <table className="dash-table dash-cards">
        <caption>Subscribers, newest first (at most {SUBSCRIBER_LIMIT})</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Status</th>
            <th scope="col">Source</th>
            <th scope="col">Date (EAT)</th>
          </tr>
        </thead>
        <tbody>
          {block.rows.map((s) => (
            <tr key={s.email}>
              <th scope="row" className="dash-name">
                {s.email}
              </th>
              <td>
                <span className={s.status === "active" ? "pill pill-approved" : "pill pill-rejected"}>{s.status}</span>
                {s.mailRefusedAt ? (
                  <span className="small mail-refused">
                    {" "}
                    Mail refused {formatNairobiTime(s.mailRefusedAt)}: no newsletter or blog notices until it subscribes again
                  </span>
                ) : null}
              </td>
              <td data-label="Source">
                <code>{s.source}</code>
              </td>
              <td data-label="Date" className="nowrap">
                <time dateTime={s.createdAt}>{formatNairobiTime(s.createdAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
