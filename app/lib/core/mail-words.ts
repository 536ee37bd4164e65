/** A message kept as an .eml file because no SMTP_URL is set: its own state, never 'sent'. */
export const WRITTEN_TO_OUTBOX = "Written to the outbox folder: not sent; set SMTP_URL";
