/**
 * An error said where the eye already is, read out at once: over a form (a refusal that is not
 * about one field), or in place of a block that could not load (`block`). Nothing without one.
 */
export function ErrorBanner({ message, block = false }: { message?: React.ReactNode; block?: boolean }) {
  if (!message) return null;
  return (
    <p className={block ? "block-error" : "form-status form-status-error"} role="alert">
      {message}
    </p>
  );
}
