import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Selectable } from "kysely";
import nodemailer, { type Transporter } from "nodemailer";
import { site } from "../core/site";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../server/files.server";
import { env } from "../server/env.server";
import { getDb, nowIso, type Db } from "../db/db.server";
import type { OutboxTable } from "../db/infra.tables";
import { isPostgres } from "../db/dialect.server";
import { getBlob } from "../db/blob-store.server";
import { singleFlight } from "../core/single-flight";
import { inGroupCommit } from "../db/group-commit.server";
import { requestsFirst } from "../server/loop-watch.server";
import {
  isBulkKind,
  isPermanentRejection,
  isSuppressed,
  isTransportFailure,
  noteMailDelivered,
  noteMailFailure,
  suppressAddress,
  withoutAddresses,
} from "./mail-health.server";
import { noteDiskFull } from "../server/disk-space.server";

export type MailAttachment = {
  filename: string;
  /** A stored file's key (app/lib/db/blob-store.server.ts), read when the message is sent: never a path a client sent. */
  dataPath: string;
  contentType: string;
  /** Set for a picture the HTML shows inline (`<img src="cid:…">`). */
  cid?: string;
};

export type MailMessage = {
  kind: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
};

/**
 * Queues a message. Call it inside the transaction that saves the record the message is
 * about, so both are kept or neither is; the worker sends it after the commit.
 */
export async function enqueueMail(db: Db, msg: MailMessage) {
  const now = nowIso();
  const row = await db
    .insertInto("outbox")
    .values({
      kind: msg.kind,
      to_address: msg.to,
      reply_to: msg.replyTo ?? null,
      subject: msg.subject,
      text_body: msg.text,
      html_body: msg.html ?? null,
      headers: JSON.stringify(msg.headers ?? {}),
      attachments: JSON.stringify(msg.attachments ?? []),
      status: "queued",
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

// Minutes to wait after each failed attempt; after the last one the message is 'failed'. The
// first three attempts fall within 5 minutes, so a mail server that is away shows within them
// (mail-health.server.ts).
const RETRY_MINUTES = [1, 3, 10, 30, 60, 180, 720];
export const MAX_ATTEMPTS = RETRY_MINUTES.length + 1;

/**
 * Where replies go when a message names no Reply-To of its own: the organisation's inbox. The
 * site sends from a no-reply address, and its emails say 'Reply to this email'.
 */
export const organisationInbox = () => env().orgInbox ?? site.contactEmail;

let transporter: Transporter | undefined;

function getTransport(): Transporter {
  if (transporter) return transporter;
  const url = env().smtpUrl;
  transporter = url
    ? nodemailer.createTransport(url)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return transporter;
}

export function outboxDir() {
  return path.join(env().dataDir, "outbox");
}

/**
 * The `.eml` file a message was written to with no SMTP_URL (its message id is `file:<name>`),
 * removed: the file holds the whole message, so erasure and the mail-body retention rule take
 * it with the row's body. Answers whether a file went.
 */
export function removeOutboxFile(messageId: string | null | undefined): boolean {
  if (!messageId?.startsWith("file:")) return false;
  const name = path.basename(messageId.slice("file:".length));
  if (!name.endsWith(".eml")) return false;
  const file = path.join(outboxDir(), name);
  if (!fs.existsSync(file)) return false;
  fs.rmSync(file, { force: true });
  return true;
}

async function deliver(
  db: Db,
  row: Pick<
    Selectable<OutboxTable>,
    "id" | "to_address" | "reply_to" | "subject" | "text_body" | "html_body" | "headers" | "attachments" | "kind"
  >,
) {
  const attachments = await Promise.all(
    (JSON.parse(row.attachments) as MailAttachment[]).map(async (a) => {
      const content = await getBlob(db, a.dataPath);
      // Thrown, the attempt fails and is retried later, as a mail server that is down would be.
      if (!content) throw new Error(`attachment ${a.dataPath} is missing`);
      return { filename: a.filename, contentType: a.contentType, content, ...(a.cid ? { cid: a.cid } : {}) };
    }),
  );
  const info = await getTransport().sendMail({
    from: env().mailFrom ?? site.mailFrom,
    to: row.to_address,
    replyTo: row.reply_to ?? organisationInbox(),
    subject: row.subject,
    text: row.text_body,
    html: row.html_body ?? undefined,
    headers: JSON.parse(row.headers) as Record<string, string>,
    attachments,
  });
  if (!env().smtpUrl) {
    // No mail server configured: keep the message as an .eml file and say so.
    const dir = outboxDir();
    ensurePrivateDir(dir);
    const file = path.join(
      dir,
      `${nowIso().replace(/[:.]/g, "-")}-${row.id}-${row.kind.replace(/[^a-z0-9_-]/gi, "")}.eml`,
    );
    writeWhole(file, (info as unknown as { message: Buffer }).message);
    console.log(`[mail] no SMTP_URL: wrote message ${row.id} (${row.kind}) to ${path.relative(process.cwd(), file)}: not sent`);
    return { messageId: `file:${path.basename(file)}`, status: "written" as const };
  }
  return { messageId: info.messageId ?? "", status: "sent" as const };
}

/** A bulk message for an address whose mail server refused mail for good is not sent. */
export const SUPPRESSED_ERROR = "Not sent: this address's mail server refused mail before; it gets no newsletter or blog notices until it subscribes again.";

/**
 * Writes the file under a temporary name, then renames it: a disk that fills up mid-write leaves
 * no empty or cut-off .eml (the temporary file is removed and the message is tried again).
 */
function writeWhole(file: string, content: Buffer) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, content, { mode: PRIVATE_FILE_MODE });
    fs.renameSync(temp, file);
  } catch (e) {
    fs.rmSync(temp, { force: true });
    throw e;
  }
}

/** A message that could not be written for want of space is tried again this soon, its attempts not counted. */
export const NO_SPACE_RETRY_MS = 15_000;

const worker = singleFlight("mail", async () => runOnce(await getDb()));

/**
 * While requests are being answered, the worker waits this long before each message: a rush of
 * orders is answered first and its 'received' emails follow at up to 40 a second, then at full
 * speed once the rush is over (each message costs a claim, a MIME build and a 'sent' mark).
 */
export const MAIL_PACE_WHILE_ANSWERING_MS = 25;
let timer: NodeJS.Timeout | undefined;

/**
 * How long a message may stay 'sending' before it counts as abandoned by a process that died
 * (nodemailer gives up on a silent server well before this).
 */
const SENDING_LEASE_MS = 15 * 60_000;

/**
 * Takes the oldest due message for this process: marks it 'sending' with a lease and returns it
 * as it was before (attempts not yet counted). Exactly one process gets each message. On
 * PostgreSQL one statement claims it, skipping rows another process is claiming (FOR UPDATE
 * SKIP LOCKED); on SQLite the update only succeeds while the row is still queued.
 */
async function claimNextMessage(db: Db) {
  const lease = () => ({ status: "sending" as const, next_attempt_at: new Date(Date.now() + SENDING_LEASE_MS).toISOString() });
  if (isPostgres(db)) {
    const now = nowIso();
    const row = await db
      .updateTable("outbox")
      .set((eb) => ({ ...lease(), attempts: eb("attempts", "+", 1) }))
      .where("id", "=", (eb) =>
        eb
          .selectFrom("outbox")
          .select("id")
          .where("status", "=", "queued")
          .where("next_attempt_at", "<=", now)
          .orderBy("id")
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .executeTakeFirst();
    return row ? { ...row, attempts: row.attempts - 1 } : undefined;
  }
  for (;;) {
    // The id first: the index answers it without reading (and sorting) every queued message's body.
    const due = await db
      .selectFrom("outbox")
      .select("id")
      .where("status", "=", "queued")
      .where("next_attempt_at", "<=", nowIso())
      .orderBy("id")
      .limit(1)
      .executeTakeFirst();
    const row = due && (await db.selectFrom("outbox").selectAll().where("id", "=", due.id).where("status", "=", "queued").executeTakeFirst());
    if (!due) return undefined;
    if (!row) continue;
    // Shares a commit with orders being written (group-commit.server.ts): one disk flush, not two.
    const claimed = await inGroupCommit(db, (trx) =>
      trx
        .updateTable("outbox")
        .set({ ...lease(), attempts: row.attempts + 1 })
        .where("id", "=", row.id)
        .where("status", "=", "queued")
        .executeTakeFirst(),
    );
    if (Number(claimed.numUpdatedRows) === 1) return row;
  }
}

async function runOnce(db: Db) {
  // A message claimed by a process that died mid-send goes back in the queue once its lease ends.
  await db
    .updateTable("outbox")
    .set({ status: "queued" })
    .where("status", "=", "sending")
    .where("next_attempt_at", "<=", nowIso())
    .execute();
  // A message's 'sent' mark is not waited for before the next claim: the two share a commit
  // (group-commit.server.ts). The next message is sent only once both are on disk.
  let marked: Promise<unknown> = Promise.resolve();
  try {
    for (;;) {
      await requestsFirst(MAIL_PACE_WHILE_ANSWERING_MS);
      const row = await claimNextMessage(db);
      await marked;
      if (!row) return;
      if (isBulkKind(row.kind) && (await isSuppressed(db, row.to_address))) {
        await db.updateTable("outbox").set({ status: "failed", last_error: SUPPRESSED_ERROR }).where("id", "=", row.id).execute();
        continue;
      }
      let delivered: Awaited<ReturnType<typeof deliver>>;
      try {
        delivered = await deliver(db, row);
      } catch (e) {
        const error = (e instanceof Error ? e.message : String(e)).slice(0, 500);
        if (noteDiskFull(e)) {
          // Nothing wrong with the message: the disk is full. Tried again soon, not counted.
          console.warn(`[mail] message ${row.id} could not be written (no space left); trying again in ${NO_SPACE_RETRY_MS / 1000} s`);
          await db
            .updateTable("outbox")
            .set({ status: "queued", attempts: row.attempts, last_error: error, next_attempt_at: new Date(Date.now() + NO_SPACE_RETRY_MS).toISOString() })
            .where("id", "=", row.id)
            .execute();
          setTimeout(() => void kickMailWorker(), NO_SPACE_RETRY_MS + 100).unref();
          continue;
        }
        const attempts = row.attempts + 1;
        // A 5xx to RCPT or DATA ('no such mailbox') will be the same answer tomorrow: failed now.
        const permanent = isPermanentRejection(e);
        const wait = permanent ? undefined : RETRY_MINUTES[attempts - 1];
        console.warn(`[mail] message ${row.id} attempt ${attempts} ${permanent ? "refused for good" : "failed"} (${row.kind}): ${withoutAddresses(error)}`);
        if (permanent) await suppressAddress(db, row.to_address, error);
        else if (isTransportFailure(e)) await noteMailFailure(db, error);
        await db
          .updateTable("outbox")
          .set(
            wait === undefined
              ? { status: "failed", last_error: permanent ? `Refused by the mail server: ${error}` : error }
              : {
                  status: "queued",
                  last_error: error,
                  next_attempt_at: new Date(Date.now() + wait * 60_000).toISOString(),
                },
          )
          .where("id", "=", row.id)
          .execute();
        continue;
      }
      marked = inGroupCommit(db, async (trx) => {
        await trx
          .updateTable("outbox")
          .set({ status: delivered.status, sent_at: nowIso(), message_id: delivered.messageId, last_error: null })
          .where("id", "=", row.id)
          .execute();
        await noteMailDelivered(trx);
      });
      // Awaited at the next claim (or below); a failure is the pass's, not an unhandled rejection.
      marked.catch(() => {});
    }
  } finally {
    await marked;
  }
}

/** Starts a sending pass now (or right after the current one). Never throws. */
export function kickMailWorker(): Promise<void> {
  return worker.kick();
}

/**
 * At start-up: messages left mid-send by a crash are queued again (with several server
 * processes, or on PostgreSQL, only those whose lease ended: the others are being sent by a live process);
 * retries are polled.
 */
export async function startMailWorker(pollMs = 30_000) {
  const db = await getDb();
  let requeue = db.updateTable("outbox").set({ status: "queued", next_attempt_at: nowIso() }).where("status", "=", "sending");
  // Another process (WORKERS, or another machine on PostgreSQL) may be sending the rest.
  if (env().workers > 1 || isPostgres(db)) requeue = requeue.where("next_attempt_at", "<=", nowIso());
  await requeue.execute();
  timer ??= setInterval(() => void kickMailWorker(), pollMs);
  timer.unref();
  void kickMailWorker();
}

export function stopMailWorker() {
  if (timer) clearInterval(timer);
  timer = undefined;
  transporter?.close();
  transporter = undefined;
}

/** Waits until nothing is due (tests, shutdown). */
export async function drainOutbox() {
  await kickMailWorker();
  await worker.idle();
}

/** A random token, for links that must not be guessed. */
export const randomToken = (bytes = 18) => crypto.randomBytes(bytes).toString("base64url");

/** The outbox's messages counted by status (queued, sending, sent, written, failed), for the staff home. */
export async function outboxSummary(db: Db) {
  const rows = await db
    .selectFrom("outbox")
    .select(["status", db.fn.countAll<number>().as("n")])
    .groupBy("status")
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Record<string, number>;
}
