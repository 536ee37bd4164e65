import { REACTION_LABELS, REACTIONS } from "~/features/blog/blog";
import type { Block, ReactionRow } from "../engagement-screen";
import { ErrorBanner } from "~/components/ui/error-banner";

const n = (v: number) => v.toLocaleString("en-GB");

/** Reactions per post, most reacted first. */
export function ReactionsTable({ block }: { block: Block<ReactionRow[]> }) {
  if (!block.ok) return <ErrorBanner block message={block.error} />;
  return (
    <div className="table-wrap">
      <table className="dash-table">
        <caption>Reactions per post</caption>
        <thead>
          <tr>
            <th scope="col">Post</th>
            {REACTIONS.map((r) => (
              <th key={r} scope="col" className="num reaction-head">
                {REACTION_LABELS[r]}
              </th>
            ))}
            <th scope="col" className="num" aria-sort="descending">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {block.rows.length === 0 ? (
            <tr>
              <td colSpan={REACTIONS.length + 2} className="dash-empty">
                No reactions yet.
              </td>
            </tr>
          ) : (
            block.rows.map((row) => (
              <tr key={row.slug}>
                <th scope="row" className="dash-name">
                  <a href={`/blogs/${row.slug}`}>{row.slug}</a>
                </th>
                {REACTIONS.map((r) => (
                  <td key={r} className="num">
                    {n(row.counts[r])}
                  </td>
                ))}
                <td className="num ranked">{n(row.total)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
