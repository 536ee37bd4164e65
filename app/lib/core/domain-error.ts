/**
 * The one error a feature throws: what went wrong in the domain's own words, with no HTTP in
 * it. `app/lib/http/http.server.ts` (`httpErrorOf`) is the single place that turns a code into a
 * status, for HTML actions and the JSON API alike.
 */
export type DomainErrorCode =
  /** The input breaks a rule (400). */
  | "invalid"
  /** The caller may not do this (403). */
  | "forbidden"
  /** No such record (404). */
  | "not_found"
  /** The record's state or another record forbids it: already approved, code used (409). */
  | "conflict"
  /** Too large to take (413). */
  | "too_large"
  /** Try again shortly (503). */
  | "busy";

export class DomainError extends Error {
  override readonly name = "DomainError";
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** The form field the message belongs to, when there is one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

export const STATUS_OF_CODE: Record<DomainErrorCode, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  busy: 503,
};

/** The same error, its message now belonging to `field` (a portrait's message to the portrait input). */
export const onField = (e: DomainError, field: string) => new DomainError(e.code, e.message, field);
