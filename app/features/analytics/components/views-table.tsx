import { formatNairobiTime } from "~/lib/core/nairobi-time";
import { formatCount } from "../activity-screen";

export type ViewsRow = { name: string; total: number; unique: number; lastSeen: string; site?: number; share?: number };

/**
 * One of the dashboard's tables (blog views, page views, events): the spec's row fields, with
 * 'unique' (distinct visitors) next to the total. The ranked column is marked for screen readers.
 */
export function ViewsTable({
  caption,
  nameLabel,
  rows,
  rankBy,
  split = false,
  empty,
}: {
  caption: string;
  nameLabel: string;
  rows: ViewsRow[] | null;
  rankBy: "total" | "unique";
  split?: boolean;
  empty: string;
}) {
  const sort = (col: "total" | "unique") => (rankBy === col ? "descending" : undefined);
  return (
    <div className="table-wrap table-scroll" tabIndex={0} role="group" aria-label={caption}>
      <table className="dash-table dash-cards">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{nameLabel}</th>
            <th scope="col" className="num" aria-sort={sort("total")}>
              Total
            </th>
            <th scope="col" className="num" aria-sort={sort("unique")}>
              Unique
            </th>
            {split ? (
              <>
                <th scope="col" className="num">
                  Site
                </th>
                <th scope="col" className="num">
                  Share
                </th>
              </>
            ) : null}
            <th scope="col">Last seen (EAT)</th>
          </tr>
        </thead>
        <tbody>
          {!rows || rows.length === 0 ? (
            <tr>
              <td colSpan={split ? 6 : 4} className="dash-empty">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((r) => (
              <tr key={r.name}>
                <th scope="row" className="dash-name">
                  {r.name}
                </th>
                <td data-label="Total" className={rankBy === "total" ? "num ranked" : "num"}>{formatCount(r.total)}</td>
                <td data-label="Unique" className={rankBy === "unique" ? "num ranked" : "num"}>{formatCount(r.unique)}</td>
                {split ? (
                  <>
                    <td data-label="Site" className="num">{formatCount(r.site ?? 0)}</td>
                    <td data-label="Share" className="num">{formatCount(r.share ?? 0)}</td>
                  </>
                ) : null}
                <td data-label="Last seen" className="nowrap">
                  <time dateTime={r.lastSeen}>{formatNairobiTime(r.lastSeen)}</time>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
