import type { Referrer } from "../reports";
import { formatCount } from "../activity-screen";

/** Where visitors came from: the referring host only, never the full address. */
export function TopReferrers({ rows, period }: { rows: Referrer[] | null; period: string }) {
  const max = Math.max(1, ...(rows ?? []).map((r) => r.views));
  return (
    <div className="table-wrap">
      <table className="dash-table">
        <caption>Top referrers, {period}</caption>
        <thead>
          <tr>
            <th scope="col">Site</th>
            <th scope="col" className="num">
              Page views
            </th>
          </tr>
        </thead>
        <tbody>
          {!rows || rows.length === 0 ? (
            <tr>
              <td colSpan={2} className="dash-empty">
                No visits from other sites in this period.
              </td>
            </tr>
          ) : (
            rows.map((r) => (
              <tr key={r.host}>
                <th scope="row" className="dash-name">
                  <span className="ref-bar" style={{ width: `${Math.round((r.views / max) * 100)}%` }} aria-hidden="true" />
                  <span className="ref-host">{r.host}</span>
                </th>
                <td className="num">{formatCount(r.views)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
