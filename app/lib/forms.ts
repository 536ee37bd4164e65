/** The answer every HTML form action gives; the form's component turns it into words. */
export type FormReply = {
  status: "success" | "error";
  /** For errors that are not about one field (rate limit, server trouble). */
  detail?: string;
  /** Seconds to wait, when the reply is a rate limit. */
  retryAfter?: number;
  fieldErrors?: Record<string, string[]>;
  /** What was typed, so a failed form keeps it. */
  values?: Record<string, string>;
  /** Anything the success view needs (an order reference, say). */
  result?: Record<string, string | number>;
};

export const HONEYPOT_FIELD = "website";

export const firstError = (reply: FormReply | undefined, field: string) =>
  reply?.fieldErrors?.[field]?.[0];
