import { useId } from "react";
import type { Reply } from "~/lib/core/forms";
import { Form, useNavigation } from "react-router";
import { FormStatus } from "~/components/ui/form-parts";
import { FEEDBACK_OPTIONS } from "~/features/blog/blog";
import { ENGAGEMENT_PATH, POLL_DEFAULTS, POLL_INTENT, ratingGrid, type Block, type PollResult, type PollView } from "../engagement-screen";
import { ErrorBanner } from "~/components/ui/error-banner";
import { groupDigits } from "~/lib/core/plain-format";

const n = groupDigits;

/** Create or ensure a poll: a plain POST form; with JavaScript the list refreshes in place. */
export function PollForm({ reply }: { reply: Reply<PollResult> | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === POLL_INTENT;
  const values = reply?.status === "error" ? reply.result?.values : undefined;
  return (
    <Form method="post" action={ENGAGEMENT_PATH} className="poll-form form-card" aria-labelledby="poll-form-title">
      <h3 id="poll-form-title">Create or ensure a poll</h3>
      <input type="hidden" name="intent" value={POLL_INTENT} />
      <div className="field">
        <label htmlFor="poll-id">Poll id</label>
        <input
          // A new reply resets the fields to what it carries.
          key={`id-${reply?.message ?? ""}-${reply?.result?.id ?? values?.id ?? ""}`}
          id="poll-id"
          name="id"
          type="text"
          required
          maxLength={100}
          autoComplete="off"
          placeholder="blog-my-post-poll"
          defaultValue={values?.id ?? ""}
        />
      </div>
      <div className="field">
        <label htmlFor="poll-question">Question</label>
        <input
          key={`q-${reply?.message ?? ""}`}
          id="poll-question"
          name="question"
          type="text"
          maxLength={200}
          defaultValue={values?.question ?? POLL_DEFAULTS.question}
        />
      </div>
      <div className="field">
        <label htmlFor="poll-options">Options</label>
        <input
          key={`o-${reply?.message ?? ""}`}
          id="poll-options"
          name="options"
          type="text"
          maxLength={2000}
          aria-describedby="poll-options-hint"
          defaultValue={values?.options ?? POLL_DEFAULTS.options}
        />
        <p id="poll-options-hint" className="field-hint">
          Comma-separated. The first one (or &lsquo;A&rsquo;) seeds the poll; options already there are kept.
        </p>
      </div>
      <label className="dash-check">
        <input key={`t-${reply?.message ?? ""}`} type="checkbox" name="template" defaultChecked={values?.template ?? false} />
        <span>
          Use the five-step template instead: {FEEDBACK_OPTIONS.join(", ")}, each rated 1 to 5
        </span>
      </label>
      <button type="submit" className="button-small" disabled={busy}>
        {busy ? "Saving…" : "Create or ensure"}
      </button>
      <FormStatus tone={reply?.status ?? null}>{reply?.message}</FormStatus>
    </Form>
  );
}

function RatingTable({ poll, grid }: { poll: PollView; grid: NonNullable<ReturnType<typeof ratingGrid>> }) {
  return (
    <div className="table-wrap" tabIndex={0} role="group" aria-label={`Ratings for ${poll.id}`}>
      <table className="dash-table dash-cards rating-table">
        <caption>{`Ratings for ${poll.id}`}</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            {[1, 2, 3, 4, 5].map((s) => (
              <th key={s} scope="col" className="num">
                {s}
              </th>
            ))}
            <th scope="col" className="num">
              Votes
            </th>
            <th scope="col" className="num">
              Average
            </th>
          </tr>
        </thead>
        <tbody>
          {grid.map((row) => (
            <tr key={row.item}>
              <th scope="row">{row.item}</th>
              {row.steps.map((c, i) => (
                <td key={i} data-label={`Rated ${i + 1}`} className="num">
                  {n(c)}
                </td>
              ))}
              <td data-label="Votes" className="num">
                {n(row.votes)}
              </td>
              <td data-label="Average" className="num">
                {row.average === null ? "–" : row.average.toFixed(1)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PollCard({ poll }: { poll: PollView }) {
  const id = useId();
  const entries = Object.entries(poll.options);
  const votes = entries.reduce((s, [, c]) => s + c, 0);
  const max = Math.max(1, ...entries.map(([, c]) => c));
  const grid = ratingGrid(poll.options);
  return (
    <li className="poll" aria-labelledby={id}>
      <div className="poll-head">
        <h3 id={id}>{poll.id}</h3>
        <span className="poll-votes">
          {n(votes)} vote{votes === 1 ? "" : "s"}
        </span>
      </div>
      <p className="poll-question">{poll.question}</p>
      {grid ? (
        <RatingTable poll={poll} grid={grid} />
      ) : (
        // Named by hidden words: a list may not carry aria-label.
        <>
          <span id={`poll-${poll.id.replace(/[^A-Za-z0-9_-]/g, "-")}-options`} className="visually-hidden">
            Options of {poll.id}
          </span>
          <ul className="poll-options" aria-labelledby={`poll-${poll.id.replace(/[^A-Za-z0-9_-]/g, "-")}-options`}>
          {entries.map(([option, count]) => (
            <li key={option} className="poll-option">
              <span>{option}</span>
              <span className="bar" aria-hidden="true">
                <span style={{ width: `${Math.round((count / max) * 100)}%` }} />
              </span>
              <span className="num">{n(count)}</span>
            </li>
          ))}
          </ul>
        </>
      )}
    </li>
  );
}

export function PollList({ block }: { block: Block<PollView[]> }) {
  if (!block.ok) return <ErrorBanner block message={block.error} />;
  if (block.rows.length === 0) return <p className="dash-empty">No polls yet.</p>;
  return (
    // A long list scrolls inside its card on a wide screen: reachable with the keyboard.
    <ul className="poll-list" aria-label="Polls, newest first" tabIndex={0}>
      {block.rows.map((p) => (
        <PollCard key={p.id} poll={p} />
      ))}
    </ul>
  );
}
