import { Fragment } from "react";
import { formatDateInWords } from "~/lib/core/nairobi-time";
import { site } from "~/lib/core/site";
import type { Award } from "../open-badges";
import { obPaths } from "../../badge-art/open-badge-paths";

/** The verdict on one badge, for people: Valid or Revoked, who holds it, from whom, when, for what. */
export function VerifyResult({ award, linkedIn }: { award: Award; linkedIn: { url: string; fields: Record<string, string> } | null }) {
  const revoked = award.revoked;
  return (
    <article className={`verify-result ${revoked ? "verify-revoked" : "verify-valid"}`} aria-labelledby="verify-verdict">
      <p className="verify-verdict" id="verify-verdict">
        {revoked ? "Revoked" : "Valid"}
      </p>
      {revoked ? (
        <p>
          Revoked on {formatDateInWords(revoked.at)}: {revoked.reason || "revoked by the issuer."}
        </p>
      ) : null}
      <dl className="facts">
        <dt>Badge</dt>
        <dd>{award.className}</dd>
        <dt>ID</dt>
        <dd>
          <code>{award.id}</code>
        </dd>
        <dt>Holder</dt>
        <dd>{award.holder}</dd>
        <dt>Issuer</dt>
        <dd>{site.name}</dd>
        <dt>Issued</dt>
        <dd>{formatDateInWords(award.issuedOn)}</dd>
        <dt>What it was for</dt>
        <dd>{award.criteria}</dd>
      </dl>
      <p className="small">
        For verifiers: <a href={obPaths.assertion(award.id)}>Open Badges 2.0 assertion</a> ·{" "}
        <a href={obPaths.badgeClass(award.classId)}>badge class</a> · <a href={obPaths.issuer}>issuer</a> ·{" "}
        <a href={obPaths.credential(award.id)}>Open Badges 3.0 credential (signed)</a>
      </p>
      {linkedIn && !revoked ? (
        <section className="verify-linkedin" aria-labelledby="linkedin-title">
          <h2 id="linkedin-title">Add it to LinkedIn</h2>
          <p>
            <a className="button button-small" href={linkedIn.url} rel="noopener noreferrer" target="_blank">
              Add to profile
            </a>
          </p>
          <p className="small">LinkedIn may not fill these in for you; copy them into its form:</p>
          <dl className="facts">
            {[
              ["Name", linkedIn.fields.name],
              ["Issuing organisation", linkedIn.fields.organizationName],
              ["Issue date", `${linkedIn.fields.issueMonth}/${linkedIn.fields.issueYear}`],
              ["Credential ID", linkedIn.fields.certId],
              ["Credential URL", linkedIn.fields.certUrl],
            ].map(([label, value]) => (
              <Fragment key={label}>
                <dt>{label}</dt>
                <dd>
                  <input type="text" readOnly value={value} aria-label={label} />
                </dd>
              </Fragment>
            ))}
          </dl>
        </section>
      ) : null}
    </article>
  );
}
