import { clearPageCache } from "~/lib/http/page-cache.server";
import type { Db } from "~/lib/db/db.server";
import type { Selectable } from "kysely";
import type { OutboxTable } from "~/lib/db/infra.tables";
import type { BadgeOrdersTable } from "./event-badges.tables";
import { nowIso } from "~/lib/db/db.server";
import { lockedForUpdate } from "~/lib/db/dialect.server";
import type { Actor } from "~/lib/core/actor";
import { logAction } from "../activity/activity.server";
import { enqueueMail, kickMailWorker, MAX_ATTEMPTS, randomToken } from "~/lib/mail/email.server";
import { WRITTEN_TO_OUTBOX } from "~/lib/core/mail-words";
import { deleteBlobs, getBlob, hasBlob, putBlob } from "~/lib/db/blob-store.server";
import { DomainError } from "~/lib/core/domain-error";
import { absoluteUrl } from "~/lib/http/http.server";
import { formatNairobiTimeEat } from "~/lib/core/nairobi-time";
import { unusedOrderId } from "~/features/orders/order-ids.server";
import { appendedTo, noteEntry } from "~/lib/db/staff-notes.server";
import { oldReferenceOf } from "../legacy-ledger/ledger.server";
import { inGroupCommit } from "~/lib/db/group-commit.server";
import { orderSearch } from "../admin/order-search.server";
import { safeEqual } from "~/lib/db/secrets.server";
import { orderPagePath } from "~/features/orders/order-page";
import { claimCodeForOrder, keepIdempotencyKey, OrderReplay, orderOfKey, replayCodelessOrder, type Idempotency } from "../payment-codes/order-replay.server";
import { PAYMENT_CODE_REQUIRED } from "../payment-codes/payment-code";
import { paymentChoice } from "../stk-push/stk-push.schema";
import { stkEnabled } from "../stk-push/stk-push.server";
import { STAFF_NOTE_MAX_LENGTH, type BadgeOrderInput, type BadgeOrderStatus } from "./badge-order.schema";
import { badgeKitEmail, badgeRejectedEmail, ENTRY_QR_CID, orderReceivedEmail } from "./emails/badge-emails";
import { getEvent } from "./event.server";
import { bakePng } from "../badge-art/bake.server";
import { obPaths } from "../badge-art/open-badge-paths";
import type { EventRecord } from "./event";
import { entryQrKey, storeEntryQr } from "./check-in.server";
import { renderKit } from "./kit.server";
import { BADGE_FILE, orderFileExt, orderFileKey, orderFileType, orderFolder, PORTRAIT_FILE, POSTER_FILE, posterForStorage } from "./portrait.server";
import { findTier, type Tier } from "./tiers";
import { wallNameOf } from "./wall";
import { ORDER_NOT_FOUND, type BadgeOrderView, type Delivery } from "./badge-order";
import { isSameBadgeOrder, replayedBadgeOrder } from "./badge-order-replay.server";

export const ASSETS_REQUIRED = "Generate assets before approving.";

/** The event page's share link for a tier (spec section 3, 'Share URL'). */
export const tierShareUrl = (tierKey: string) =>
  absoluteUrl(`/event?utm_source=share&utm_medium=badge&utm_campaign=event_${tierKey}`);

/**
 * Staff links to an order's images: they carry the order's random token, so they work in an
 * <img>. `file` is the stored file's name, as the order row holds it (portrait.jpg, badge.png...).
 */
export const assetPath = (id: string, file: string, token: string) => `/admin/badge-orders/${id}/${file}?t=${token}`;

type DeliveryRow = Pick<Selectable<OutboxTable>, "status" | "last_error" | "sent_at" | "attempts"> | undefined;

function deliveryOf(row: DeliveryRow): Delivery {
  if (!row) return null;
  if (row.status === "sent") return { ok: true, state: "sent", detail: `Emailed ${formatNairobiTimeEat(row.sent_at)}` };
  if (row.status === "written") return { ok: false, state: "written", detail: `${WRITTEN_TO_OUTBOX} (${formatNairobiTimeEat(row.sent_at)})` };
  if (row.status === "failed") return { ok: false, state: "failed", detail: row.last_error ?? "unknown" };
  if (row.last_error) {
    return {
      ok: false,
      state: "retrying",
      detail: `${row.last_error}; retrying, attempt ${row.attempts} of ${MAX_ATTEMPTS}`,
    };
  }
  return { ok: true, state: "queued", detail: "Queued for sending" };
}

function toView(r: BadgeOrdersTable, delivery: DeliveryRow): BadgeOrderView {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    hardCopy: r.hard_copy === 1,
    tierKey: r.tier_key,
    tierName: r.tier_name,
    amount: r.amount,
    paymentReference: r.payment_reference,
    notes: r.notes,
    status: r.status,
    createdAt: r.created_at,
    approvedAt: r.approved_at,
    delivery: deliveryOf(delivery),
    portraitPath: r.portrait_file ? assetPath(r.id, r.portrait_file, r.asset_token) : null,
    badgePath: r.badge_file ? assetPath(r.id, r.badge_file, r.asset_token) : null,
    posterPath: r.poster_file ? assetPath(r.id, r.poster_file, r.asset_token) : null,
    shareUrl: r.share_url,
    staffNote: r.staff_note,
    wall: {
      optIn: r.wall_opt_in === 1,
      name: r.wall_opt_in === 1 ? wallNameOf({ name: r.name, wallName: r.wall_name }) : "",
      portrait: r.wall_portrait === 1,
      hidden: r.wall_hidden === 1,
    },
    badgeRevoked: r.badge_revoked_at ? { at: r.badge_revoked_at, reason: r.badge_revocation_reason } : null,
  };
}

export function mailFields(r: Pick<BadgeOrdersTable, "id" | "name" | "tier_name" | "amount" | "payment_reference" | "hard_copy">) {
  return {
    id: r.id,
    name: r.name,
    tierName: r.tier_name,
    amount: r.amount,
    paymentReference: r.payment_reference,
    hardCopy: r.hard_copy === 1,
  };
}

/**
 * An order's mail fields as its supporter knew the order: one moved in from the old site quotes
 * its old reference, and the payment code as they gave it (without the suffix the import added
 * to a code two old orders shared).
 */
export async function mailFieldsFor(db: Db, row: Parameters<typeof mailFields>[0]) {
  const fields = mailFields(row);
  const old = await oldReferenceOf(db, row.id);
  return old ? { ...fields, paymentReference: row.payment_reference.replace(/-\d+$/, ""), oldReference: old } : fields;
}

/**
 * Saves a supporter's confirmation. The tier's name and amount come from the server's table;
 * the payment code is claimed in the same transaction (one code, one order), and the
 * 'we received your order' email is queued with it. The portrait, already re-encoded, is
 * written to disk (and synced) before the order that points at it is committed. The same order
 * sent again (same code, email and tier; or the same Idempotency-Key and body) is answered
 * with the stored one, `replayed`: nothing is stored or mailed twice.
 */
/** A retried order was placed already: its prompt, if any, is not sent again from here. */
const ALREADY_PLACED = { by: "code" } as const;

export async function submitBadgeOrder(
  db: Db,
  input: BadgeOrderInput,
  portraitPng: Buffer | null,
  opts: { idempotency?: Idempotency } = {},
): Promise<{ id: string; orderPath: string; replayed?: true; byPrompt?: true; payment: { by: "code" } | { by: "stk"; phone: string } }> {
  const tier = findTier(input.tierKey);
  if (!tier) throw new DomainError("invalid", "Tier configuration missing.");
  const pay = paymentChoice(input, input.phone, { codeRequired: PAYMENT_CODE_REQUIRED, phoneField: "phone", stkOn: stkEnabled() });
  const keyed = await orderOfKey(db, "badge", opts.idempotency);
  if (keyed) return { ...(await replayedBadgeOrder(db, keyed)), payment: ALREADY_PLACED };
  const id = await unusedOrderId(db, "badge_orders", "BO");
  if (portraitPng) await putBlob(db, orderFileKey(id, PORTRAIT_FILE), portraitPng);
  let token: string;
  try {
    token = await insertOrder(db, id, tier, { ...input, paymentReference: pay.by === "code" ? pay.code : id }, portraitPng !== null, opts.idempotency);
  } catch (e) {
    if (portraitPng) await deleteBlobs(db, orderFolder(id));
    if (e instanceof OrderReplay) return { ...(await replayedBadgeOrder(db, e.orderId)), payment: ALREADY_PLACED, ...(pay.by === "stk" ? { byPrompt: true as const } : {}) };
    throw e;
  }
  void kickMailWorker();
  // The order's private page, for the one who placed it (the done state links to it).
  // Paying now: the prompt goes to the phone typed with this order (the caller sends it, after this is stored).
  return { id, orderPath: orderPagePath(id, token), payment: pay };
}

async function insertOrder(
  db: Db,
  id: string,
  tier: Tier,
  input: BadgeOrderInput & { paymentReference: string },
  hasPortrait: boolean,
  idempotency?: Idempotency,
): Promise<string> {
  // Orders placed at the same moment share one commit (app/lib/db/group-commit.server.ts); a copy
  // of an order in the same batch finds the first one's claim and is answered with it.
  return inGroupCommit(db, async (trx) => {
    // An order paid by prompt has no typed code: its reference stands in (the column is unique),
    // the account number its prompt and any paybill payment for it carry.
    if (input.payWith !== "stk") {
      await claimCodeForOrder(trx, {
        code: input.paymentReference,
        kind: "badge",
        orderId: id,
        idempotency,
        isSameOrder: (stored) => isSameBadgeOrder(trx, stored, { email: input.email, tierKey: tier.key }),
      });
    } else {
      if (idempotency) await keepIdempotencyKey(trx, "badge", idempotency, id);
      // 'Pay now' pressed twice: the same email, tier and phone within minutes is one order (for
      // the same name: a parent's badges for each child are orders of their own).
      await replayCodelessOrder(trx, {
        kind: "badge",
        email: input.email,
        phone: input.phone,
        isSameOrder: async (stored) =>
          (await isSameBadgeOrder(trx, stored, { email: input.email, tierKey: tier.key })) &&
          (await trx.selectFrom("badge_orders").select("name").where("id", "=", stored).executeTakeFirst())?.name.trim().toLowerCase() === input.name.trim().toLowerCase(),
      });
    }
    const token = randomToken();
    const row = {
      id,
      tier_key: tier.key,
      tier_name: tier.name,
      amount: tier.amount,
      name: input.name,
      email: input.email,
      phone: input.phone,
      payment_reference: input.paymentReference,
      hard_copy: input.hardCopy ? 1 : 0,
      notes: input.notes,
      share_url: tierShareUrl(tier.key),
      status: "pending" as const,
      created_at: nowIso(),
      approved_at: null,
      rejected_at: null,
      portrait_file: hasPortrait ? PORTRAIT_FILE : null,
      badge_file: null,
      poster_file: null,
      asset_token: token,
      delivery_outbox_id: null,
      staff_note: "",
      supporter_note: "",
      wall_opt_in: input.showOnWall ? 1 : 0,
      wall_name: input.showOnWall ? input.wallName : "",
      wall_portrait: input.showOnWall && input.wallPortrait && hasPortrait ? 1 : 0,
      wall_hidden: 0,
      wall_key: randomToken(),
      checked_in_at: null,
      badge_revocation_reason: "",
    };
    await trx.insertInto("badge_orders").values(row).execute();
    await enqueueMail(trx, {
      kind: "badge.received",
      to: input.email,
      ...orderReceivedEmail(mailFields(row), await getEvent(trx), absoluteUrl(orderPagePath(id, token))),
    });
    return token;
  });
}

async function loadRow(db: Db, id: string) {
  const row = await db.selectFrom("badge_orders").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new DomainError("not_found", ORDER_NOT_FOUND);
  return row;
}

async function deliveryRow(db: Db, outboxId: number | null): Promise<DeliveryRow> {
  if (outboxId === null) return undefined;
  return db
    .selectFrom("outbox")
    .select(["status", "last_error", "sent_at", "attempts"])
    .where("id", "=", outboxId)
    .executeTakeFirst();
}

/** One order as staff read it (its payment is added by reconciliation). */
export async function getBadgeOrder(db: Db, id: string): Promise<BadgeOrderView> {
  const row = await loadRow(db, id);
  return toView(row, await deliveryRow(db, row.delivery_outbox_id));
}

/**
 * Staff list: newest first, filtered by status and by a search over name, email, payment code,
 * tier and order id.
 */
export async function listBadgeOrders(
  db: Db,
  opts: { status?: BadgeOrderStatus; q?: string; limit?: number },
): Promise<BadgeOrderView[]> {
  let q = db
    .selectFrom("badge_orders as o")
    .leftJoin("outbox as m", "m.id", "o.delivery_outbox_id")
    .selectAll("o")
    .select(["m.status as m_status", "m.last_error as m_last_error", "m.sent_at as m_sent_at", "m.attempts as m_attempts"])
    .orderBy("o.created_at", "desc")
    .orderBy("o.id", "desc")
    .limit(opts.limit ?? 500);
  if (opts.status) q = q.where("o.status", "=", opts.status);
  const text = opts.q?.trim();
  if (text) q = q.where(orderSearch(["o.name", "o.email", "o.payment_reference", "o.tier_name", "o.tier_key", "o.id"], { code: "o.payment_reference", id: "o.id" }, text));
  const rows = await q.execute();
  return rows.map((r) =>
    toView(r, r.m_status ? { status: r.m_status, last_error: r.m_last_error, sent_at: r.m_sent_at, attempts: r.m_attempts ?? 0 } : undefined),
  );
}

/** Stores a rendered (or staff-sent) badge and poster for an order; both already checked PNGs (the poster is kept as JPEG). */
export async function attachBadgeAssets(db: Db, id: string, images: { badge: Buffer; poster: Buffer }, actor: Actor) {
  const order = await storeAssets(db, id, images);
  await logAction(db, actor, { type: "badge_orders.assets", message: `Assets attached to ${id}`, meta: { id } });
  return order;
}

async function storeAssets(db: Db, id: string, images: { badge: Buffer; poster: Buffer }) {
  await loadRow(db, id);
  // The badge carries its Open Badges assertion's address (baked), so the file itself can be verified.
  const poster = await posterForStorage(images.poster);
  await putBlob(db, orderFileKey(id, BADGE_FILE), bakePng(images.badge, absoluteUrl(obPaths.assertion(id))));
  await putBlob(db, orderFileKey(id, POSTER_FILE), poster);
  await db.updateTable("badge_orders").set({ badge_file: BADGE_FILE, poster_file: POSTER_FILE }).where("id", "=", id).execute();
  return getBadgeOrder(db, id);
}

/** Reads an order's image for staff; `kind` is one of three fixed names, never a client path. */
export async function readOrderAsset(db: Db, id: string, kind: "portrait" | "badge" | "poster", token: string | null, staff: boolean) {
  const row = await db.selectFrom("badge_orders").selectAll().where("id", "=", id).executeTakeFirst();
  // One answer for an unknown order, a wrong token and a missing image: nothing to probe. A
  // revoked badge's kit is no longer the supporter's to download (staff still see it).
  const revoked = !!row?.badge_revoked_at && kind !== "portrait";
  const allowed = !!row && (staff || (!!token && safeEqual(token, row.asset_token) && !revoked));
  const file = allowed ? row[`${kind}_file`] : null;
  const bytes = file ? await getBlob(db, orderFileKey(id, file)) : null;
  if (!bytes) throw new DomainError("not_found", "No such image.");
  return bytes;
}

export async function readPortrait(db: Db, id: string): Promise<Buffer | null> {
  const row = await loadRow(db, id);
  if (!row.portrait_file) return null;
  return getBlob(db, orderFileKey(id, row.portrait_file));
}

/**
 * Approve (only when not already approved, the caller's `beforeApprove` check passes, and both
 * images exist) or reject (when not already rejected). Approval queues the kit email, both PNGs
 * attached, in the same transaction, and the order keeps a link to that message so its delivery
 * result shows on the order.
 */
export async function setBadgeOrderStatus(
  db: Db,
  id: string,
  status: "approved" | "rejected",
  actor: Actor,
  /** `drawKit`: a missing badge and poster are drawn first (the staff screen's one-step approval). */
  opts: { note?: string; beforeApprove?: (db: Db, order: BadgeOrderView) => Promise<void>; drawKit?: boolean } = {},
) {
  const row = await loadRow(db, id);
  const note = (opts.note ?? "").trim().slice(0, STAFF_NOTE_MAX_LENGTH);
  if (status === "approved") {
    if (row.status === "approved") throw new DomainError("conflict", "Order is already approved.");
    // The caller may refuse first (staff screens: a payment M-Pesa does not show in full waits
    // for their tick).
    if (opts.beforeApprove) await opts.beforeApprove(db, await getBadgeOrder(db, id));
    const ready =
      !!row.badge_file &&
      !!row.poster_file &&
      (await hasBlob(db, orderFileKey(id, row.badge_file))) &&
      (await hasBlob(db, orderFileKey(id, row.poster_file)));
    if (!ready && !opts.drawKit) throw new DomainError("conflict", ASSETS_REQUIRED);
    // Drawn outside any transaction, after the payment check: a refused approval draws nothing.
    if (!ready) await generateBadgeAssets(db, id, actor);
    // Drawn before the transaction (no lock held while drawing); the same bytes every time.
    await storeEntryQr(db, id);
    const event = await getEvent(db);
    await db.transaction().execute(async (trx) => {
      // Checked again inside the transaction: two approvals at once send one kit.
      const updated = await trx
        .updateTable("badge_orders")
        .set({ status: "approved", approved_at: nowIso(), rejected_at: null })
        .where("id", "=", id)
        .where("status", "!=", "approved")
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new DomainError("conflict", "Order is already approved.");
      const outboxId = await enqueueKitMail(trx, row, event);
      await trx.updateTable("badge_orders").set({ delivery_outbox_id: outboxId }).where("id", "=", id).execute();
    });
    void kickMailWorker();
  } else {
    if (row.status === "rejected") throw new DomainError("conflict", "Order is already rejected.");
    await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable("badge_orders")
        // The note is added to the order's notes as a dated entry (what was there stays), and is
        // the supporter's note from now on.
        .set({ status: "rejected", rejected_at: nowIso(), supporter_note: note, staff_note: appendedTo("staff_note", noteEntry(note ? `Rejected. Note to the supporter: ${note}` : "Rejected.")) })
        .where("id", "=", id)
        .where("status", "!=", "rejected")
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new DomainError("conflict", "Order is already rejected.");
      // The supporter is told, with the note, in the same transaction: a rejection is never silent.
      await enqueueMail(trx, {
        kind: "badge.rejected",
        to: row.email,
        ...badgeRejectedEmail({ ...(await mailFieldsFor(trx, row)), wasApproved: row.status === "approved", note }, absoluteUrl("/event")),
      });
    });
    void kickMailWorker();
  }
  // The event page's goal bar counts approved orders: the next visitor sees this one. An
  // approved order's badge verify page (under /badges) changes with a later rejection too.
  clearPageCache("/event");
  clearPageCache("/badges");
  const verb = status === "approved" ? "approve" : "reject";
  await logAction(db, actor, {
    type: `badge_orders.${verb}`,
    message: `Order ${id} ${status}${note ? `: ${note}` : ""}`,
    meta: note ? { id, note } : { id },
  });
  return getBadgeOrder(db, id);
}

/** The entry QR code as an inline attachment (drawn and stored by storeEntryQr first). */
export const entryQrAttachment = (id: string) => ({ filename: `${id}-entry-qr.png`, dataPath: entryQrKey(id), contentType: "image/png", cid: ENTRY_QR_CID });

async function enqueueKitMail(db: Db, row: BadgeOrdersTable, event: EventRecord) {
  // The files as stored now (drawn just before, perhaps): a badge PNG, a poster JPEG (PNG for an older order).
  const files = await db.selectFrom("badge_orders").select(["badge_file", "poster_file"]).where("id", "=", row.id).executeTakeFirstOrThrow();
  const badge = files.badge_file ?? BADGE_FILE;
  const poster = files.poster_file ?? POSTER_FILE;
  return enqueueMail(db, {
    kind: "badge.kit",
    to: row.email,
    ...badgeKitEmail(await mailFieldsFor(db, row), event, row.share_url),
    attachments: [
      { filename: `${row.id}-badge.png`, dataPath: orderFileKey(row.id, badge), contentType: orderFileType(badge) },
      { filename: `${row.id}-will-be-attending.${orderFileExt(poster)}`, dataPath: orderFileKey(row.id, poster), contentType: orderFileType(poster) },
      entryQrAttachment(row.id),
    ],
  });
}

/** Sends the kit again to an approved order (after a failed delivery, say). */
export async function resendBadgeKit(db: Db, id: string, actor: Actor) {
  await storeEntryQr(db, id);
  const event = await getEvent(db);
  await db.transaction().execute(async (trx) => {
    // Read and checked inside the transaction, the row locked: a decision made meanwhile by
    // another staff member (marked pending, rejected) is seen, not overwritten.
    const row = await trx.selectFrom("badge_orders").selectAll().where("id", "=", id).$call(lockedForUpdate(trx)).executeTakeFirst();
    if (!row) throw new DomainError("not_found", ORDER_NOT_FOUND);
    if (row.status !== "approved") throw new DomainError("conflict", "Only approved orders can be resent.");
    if (row.badge_revoked_at) throw new DomainError("conflict", "This badge was revoked: its kit is not sent again.");
    const outboxId = await enqueueKitMail(trx, row, event);
    await trx.updateTable("badge_orders").set({ delivery_outbox_id: outboxId }).where("id", "=", id).execute();
  });
  void kickMailWorker();
  await logAction(db, actor, { type: "badge_orders.resend", message: `Badge kit resent for ${id}`, meta: { id } });
  return getBadgeOrder(db, id);
}

/**
 * Renders the order's badge and poster on the server and attaches them. Rendering reads the
 * order first and writes after: no transaction is held while images are drawn.
 */
export async function generateBadgeAssets(db: Db, id: string, actor: Actor) {
  const row = await loadRow(db, id);
  const tier = findTier(row.tier_key);
  if (!tier) throw new DomainError("conflict", "Tier configuration missing.");
  const images = await renderKit({
    tier,
    name: row.name,
    portraitPng: await readPortrait(db, id),
    shareUrl: row.share_url,
    reference: row.id,
    event: await getEvent(db),
  });
  const order = await storeAssets(db, id, images);
  await logAction(db, actor, { type: "badge_orders.generate_assets", message: `Badge kit generated for ${id}`, meta: { id } });
  return order;
}
