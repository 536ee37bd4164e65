/** Errors that carry an HTTP status and a message safe to show to the caller. */
export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public headers: Record<string, string> = {},
    /** The form field the message belongs to, when there is one. */
    public field?: string,
  ) {
    super(message);
  }
}
