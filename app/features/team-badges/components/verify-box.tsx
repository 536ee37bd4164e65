import { Form } from "react-router";
import type { BadgeListQuery } from "../team-badges.schema";
import type { TeamBadge } from "../team-badges";

export type VerifyView =
  | { status: "valid"; badge: TeamBadge }
  | { status: "revoked"; badge: TeamBadge; reason: string }
  | { status: "not-issued"; id: string }
  | { status: "not-found"; id: string };

/** 'Verify a badge by ID': a GET form; the answer is part of the page it returns. */
export function VerifyBox({
  query,
  verifyText,
  result,
}: {
  query: BadgeListQuery;
  verifyText: string;
  result: VerifyView | null;
}) {
  return (
    <section className="verify-box card" id="verify" aria-labelledby="verify-title">
      <h2 id="verify-title">Verify a badge by ID</h2>
      {/* Without JavaScript the page reloads: it opens here, at the verdict. */}
      <Form method="get" action="/badges#verify" preventScrollReset>
        <label htmlFor="verify-id">Badge ID</label>
        <div className="inline-field">
          <input
            key={verifyText}
            id="verify-id"
            type="text"
            name="verify"
            defaultValue={verifyText}
            placeholder="e.g. b5692"
            maxLength={60}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            required
          />
          <button type="submit" className="button-ghost">
            Verify
          </button>
        </div>
        {query.q ? <input type="hidden" name="q" value={query.q} /> : null}
        {!query.wonOnly ? <input type="hidden" name="won" value="0" /> : null}
        {query.category !== "all" ? <input type="hidden" name="category" value={query.category} /> : null}
      </Form>
      <div role="status" aria-live="polite">
        {result?.status === "valid" ? (
          <div className="verify-result verify-valid">
            <p className="verify-verdict">Valid</p>
            <dl className="facts">
              <dt>Badge</dt>
              <dd>{result.badge.title}</dd>
              <dt>ID</dt>
              <dd>
                <code>{result.badge.id}</code>
              </dd>
              <dt>Holder</dt>
              <dd>{result.badge.ownerName}</dd>
              <dt>Issued</dt>
              <dd>{result.badge.issuedAt}</dd>
            </dl>
            <p className="small">
              <a href={`/badges/verify/${result.badge.id}`}>Full record, Open Badges files and LinkedIn</a>
            </p>
          </div>
        ) : result?.status === "revoked" ? (
          <div className="verify-result verify-revoked">
            <p className="verify-verdict">Revoked</p>
            <p>
              {result.badge.title} ({result.badge.id}) was revoked: {result.reason || "revoked by the issuer."}
            </p>
          </div>
        ) : result ? (
          <div className="verify-result verify-missing">
            <p className="verify-verdict">Not found</p>
            <p>
              {result.status === "not-issued"
                ? `Badge ${result.id} exists but hasn't been issued to a holder yet.`
                : `No issued badge has the ID “${result.id}”. Check it letter by letter: IDs look like b5692.`}
            </p>
          </div>
        ) : null}
      </div>
    </section>
  );
}
