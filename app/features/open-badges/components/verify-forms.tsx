import { Form } from "react-router";

export const VERIFY_UPLOAD_MAX_BYTES = 6 * 1024 * 1024;

/** Verify by ID (a GET form) or by the badge's PNG file (baked, posted): both work without JavaScript. */
export function VerifyForms({ message }: { message?: string }) {
  return (
    <div className="verify-forms">
      <Form method="get" action="/badges/verify" className="card verify-box">
        <h2>Verify a badge by ID</h2>
        <label htmlFor="verify-by-id">Badge ID</label>
        <div className="inline-field">
          <input id="verify-by-id" name="id" type="text" required maxLength={60} placeholder="e.g. b5692 or BO-7K2Q4M" autoComplete="off" autoCapitalize="none" spellCheck={false} />
          <button type="submit" className="button-ghost">
            Verify
          </button>
        </div>
      </Form>
      <Form method="post" action="/badges/verify" encType="multipart/form-data" className="card verify-box">
        <h2>Verify a badge file</h2>
        <label htmlFor="verify-file">The badge's PNG, as downloaded or emailed</label>
        <input id="verify-file" name="badge" type="file" accept="image/png" required />
        <button type="submit" className="button-ghost">
          Check the file
        </button>
        {message ? (
          <p className="field-error" role="alert">
            {message}
          </p>
        ) : null}
      </Form>
    </div>
  );
}
