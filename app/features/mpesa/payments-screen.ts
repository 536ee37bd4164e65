import type { StatementPreview } from "./received-payments.server";

/** Client-safe pieces of the staff screen /admin/payments. */
export const PAYMENTS_PATH = "/admin/payments";

export const SKIP_REASON_LIMIT = 50;

/** What the screen's action answers: a preview (with the draft to import) or an import's counts. */
export type StatementResult = {
  step: "preview" | "imported";
  draftId?: string;
  fileName?: string;
  preview: StatementPreview;
};
