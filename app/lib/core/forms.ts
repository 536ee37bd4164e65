/** The sentence for a form body that could not be read (cut off, not a form, over its limit of parts). */
export const FORM_UNREADABLE = "That form could not be read. Please try sending it again.";

/**
 * The answer every HTML form action gives; the form's component turns it into words. `R` is
 * what the success view needs (an order reference, say).
 */
export type Reply<R = unknown> = {
  status: "success" | "error";
  /** Which of a page's forms this answers. */
  intent?: string;
  /** Set in the browser when the request never reached the server (a dropped connection). */
  network?: boolean;
  /** The sentence the page shows about the outcome: a staff screen's words, or an error that is not about one field (rate limit, server trouble). */
  message?: string;
  /** Seconds to wait, when the reply is a rate limit. */
  retryAfter?: number;
  fieldErrors?: Record<string, string[]>;
  /** What was typed, so a failed form keeps it. */
  values?: Record<string, string>;
  /** What the page needs from the answer (an order reference, the order as it now stands). */
  result?: R;
};

export const HONEYPOT_FIELD = "website";

export const firstError = (reply: Pick<Reply, "fieldErrors"> | undefined, field: string) =>
  reply?.fieldErrors?.[field]?.[0];

/** A request body, read once. */
export type Submission = {
  /** The form as sent (url-encoded or multipart), or null for a JSON body. */
  form: FormData | null;
  /** The body's fields: a form's text fields, or the JSON object. */
  fields: Record<string, unknown>;
};
