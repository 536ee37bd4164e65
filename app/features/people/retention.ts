/**
 * How long personal data is kept: each rule, its period (configurable; these are the defaults),
 * and the words the privacy page and the staff screen use for it.
 */
export type RetentionRuleKey = "kit_files" | "payer_details" | "mail_bodies" | "unsubscribed" | "applications";

export type RetentionRule = { key: RetentionRuleKey; days: number; what: string; after: string; env: string };

export const RETENTION_DEFAULTS: readonly RetentionRule[] = [
  { key: "kit_files", days: 90, what: "Supporters' portraits and badge kits", after: "after the event", env: "RETENTION_KIT_DAYS" },
  { key: "payer_details", days: 90, what: "Phone numbers typed into order forms and M-Pesa payers' names and numbers", after: "after the payment settles", env: "RETENTION_PAYER_DAYS" },
  { key: "mail_bodies", days: 30, what: "The text of emails sent (their status and headers stay)", after: "after sending", env: "RETENTION_MAIL_DAYS" },
  { key: "unsubscribed", days: 30, what: "Unsubscribed addresses (a one-way hash stays, so an import does not add them again)", after: "after unsubscribing", env: "RETENTION_UNSUBSCRIBED_DAYS" },
  { key: "applications", days: 730, what: "Join applications, unless staff keep one", after: "after they are sent", env: "RETENTION_APPLICATION_DAYS" },
];

/** '90 days', '2 years'. */
export function periodWords(days: number) {
  if (days % 365 === 0) return days === 365 ? "1 year" : `${days / 365} years`;
  return days === 1 ? "1 day" : `${days} days`;
}
