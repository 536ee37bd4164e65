import type { Env } from "~/lib/server/env.server";

/**
 * At start, in production: one line for each setting whose absence changes what the site does
 * for people, saying what it means. Nothing is wrong with the configuration itself (a bad value
 * stops the start instead); these are the operator's choices to confirm.
 */
export function settingsNotes(config: Pick<Env, "nodeEnv" | "smtpUrl" | "backupDir" | "databaseUrl" | "publicUrl" | "backupRecipients">, publicUrlSet: boolean): string[] {
  if (config.nodeEnv !== "production") return [];
  const notes: string[] = [];
  if (!publicUrlSet)
    notes.push(
      `[settings] PUBLIC_URL is not set: links in emails, QR codes and share pages say ${config.publicUrl}, which only this machine can open. Set it to the site's address (https://…).`,
    );
  if (!config.smtpUrl)
    notes.push("[settings] SMTP_URL is not set: no email is sent (kits, receipts, staff notices); each message is only written to DATA_DIR/outbox/ and staff screens count it as 'Written to the outbox folder: not sent'.");
  if (!config.backupDir && !config.databaseUrl)
    notes.push("[settings] BACKUP_DIR is not set: no backups are taken; a lost disk loses every order. Set it (README 'Backups').");
  if (config.backupDir && !config.databaseUrl && !config.backupRecipients.length)
    notes.push("[settings] BACKUP_RECIPIENTS is not set: backups are not encrypted, and hold every supporter's data, the admin key and the session secret. Set an age public key before copying them off this machine.");
  return notes;
}
