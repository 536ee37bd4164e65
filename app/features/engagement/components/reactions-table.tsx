import { REACTION_LABELS, REACTIONS } from "~/features/blog/blog";
import type { Block, ReactionRow } from "../engagement-screen";
import { ErrorBanner } from "~/components/ui/error-banner";
import { groupDigits } from "~/lib/core/plain-format";

const n = groupDigits;

/** Reactions per post, most reacted first. */
export function ReactionsTable({ block }: { block: Block<ReactionRow[]> }) {
  if (!block.ok) return <ErrorBanner block message={block.error} />;
  if (block.rows.length === 0) return <p className="dash-empty">No one has reacted to a post yet.</p>;
  return (
    <div className="table-wrap" tabIndex={0} role="group" aria-label="Reactions per post">
      <table className="dash-table dash-cards">
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
          {block.rows.map((row) => (
            <tr key={row.slug}>
              <th scope="row" className="dash-name">
                <a href={`/blogs/${row.slug}`}>{row.slug}</a>
              </th>
              {REACTIONS.map((r) => (
                <td key={r} data-label={REACTION_LABELS[r]} className="num">
                  {n(row.counts[r])}
                </td>
              ))}
              <td data-label="Total" className="num ranked">
                {n(row.total)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
