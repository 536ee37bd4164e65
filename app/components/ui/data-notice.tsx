import { DATA_NOTICES } from "~/lib/core/data-notices";

/** What a form keeps, why and for how long, in one line, with the privacy policy a link away. */
export function DataNotice({ form }: { form: keyof typeof DATA_NOTICES }) {
  return (
    <p className="field-hint data-notice">
      {DATA_NOTICES[form]} <a href="/privacy">Privacy policy</a>
    </p>
  );
}
