import crypto from "node:crypto";
import path from "node:path";
import type { Db } from "~/lib/db/db.server";
import { randomToken } from "~/lib/mail/email.server";
import { unusedOrderId } from "~/features/orders/order-ids.server";
import { appendStaffNote, paymentReferenceTaken } from "~/features/orders/orders.server";
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, NAME_MAX_LENGTH, PHONE_MAX_LENGTH, PHONE_PATTERN } from "~/lib/core/rules";
import { joinEntries, noteEntry } from "~/lib/db/staff-notes.server";
import { nowIso } from "~/lib/db/db.server";
import { importBadgeOrder } from "../event-badges/badge-orders-import.server";
import { generateBadgeAssets, tierShareUrl } from "../event-badges/badge-orders.server";
import { system } from "~/lib/core/actor";
import type { BadgeOrdersTable } from "../event-badges/event-badges.tables";
import { PORTRAIT_FILE, processPortrait } from "../event-badges/portrait.server";
import { findTier, TIERS } from "../event-badges/tiers";
import { formatMoney, type MerchColor, type MerchItem, type PricedLine } from "../merch/merch";
import { catalogueItems, importMerchOrder } from "../merch/merch-import.server";
import type { MerchOrdersTable } from "../merch/merch.tables";
import { isValidPaymentCode, normalisePaymentCode } from "../payment-codes/payment-code";
import { claimImportedCode, codeHolder } from "../payment-codes/imported-codes.server";
import { asObject, isoTime, leadingInt, phpBool, readJsonLines, text } from "./legacy-files";
import { listOf } from "./steps-content.server";
import { FileStep, readOldBytes, readOldFile, type RunContext } from "./run.server";

const FROM_OLD_SITE = "Imported from the old site";

/**
 * An email as this site keeps it (trimmed, lower case). One today's rules refuse is kept as the
 * old site took it (trimmed), and the order goes to staff for review with the reason.
 */
function emailOf(value: unknown, who: string, review: string[]): string {
  const email = text(value).toLowerCase();
  if (!email) review.push(`${who} has no email address`);
  else if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
    review.push(`${who}: "${text(value)}" is not an email address (kept as the old site took it; no email can reach it)`);
    return text(value);
  }
  return email;
}

/**
 * A payment code as this site keeps it (typed with spaces or pasted as an SMS). One that is no
 * M-Pesa code ('paid cash at the table', 9 characters) is kept as typed, claims nothing in the
 * ledger, and sends the order to staff for review: null.
 */
function codeOf(value: unknown, who: string, review: string[]): string | null {
  const raw = text(value);
  if (!raw) {
    review.push(`${who} has no M-Pesa payment code`);
    return null;
  }
  const code = normalisePaymentCode(raw);
  if (isValidPaymentCode(code)) return code;
  review.push(`${who}: "${raw}" is not an M-Pesa code (10 letters and digits); kept as the old site took it`);
  return null;
}

/** A payment reference for a code that is not one: the text as typed, made unique among orders. */
async function typedReference(db: Db, raw: string, kind: "badge" | "merch", oldId: string) {
  const taken = (db: Db, reference: string) => paymentReferenceTaken(db, kind, reference);
  const base = raw || `(none: old order ${oldId})`;
  if (!(await taken(db, base))) return base;
  let n = 2;
  while (await taken(db, `${base} (${n})`)) n++;
  return `${base} (${n})`;
}

/** The entry that sends an order to staff: why, and the old site's record as it was. */
const reviewEntry = (reasons: string[], original: Record<string, unknown>) =>
  `NEEDS REVIEW: the old site took this order, but today's rules would refuse it: ${reasons.join("; ")}. ` +
  `It is imported as pending for staff to decide. The old site's record as it was: ${JSON.stringify(original)}`;

function phoneOf(value: unknown, notes: string[]): string {
  const phone = text(value);
  if (phone && (phone.length > PHONE_MAX_LENGTH || !PHONE_PATTERN.test(phone))) {
    notes.push(`phone "${phone.slice(0, 40)}" left out (not a phone number)`);
    return "";
  }
  return phone;
}

const statusOf = (value: unknown, notes: string[]): "pending" | "approved" | "rejected" => {
  const s = text(value).toLowerCase() || "pending";
  if (s === "pending" || s === "approved" || s === "rejected") return s;
  notes.push(`status "${s.slice(0, 20)}" read as pending`);
  return "pending";
};

/**
 * One ledger, one code per order: the first order to name a code claims it. A later order
 * naming the same code is imported all the same, its code kept with a suffix (so one payment
 * cannot approve both), and both orders carry a flag staff see in their notes.
 */
async function placeCode(db: Db, step: FileStep, line: number, code: string, kind: "badge" | "merch", orderId: string) {
  const holder = await codeHolder(db, code);
  if (!holder) {
    await claimImportedCode(db, code, kind, orderId);
    return { reference: code, flag: null };
  }
  let n = 2;
  while (await paymentReferenceTaken(db, kind, `${code}-${n}`)) n++;
  const reference = `${code}-${n}`;
  const both = `Payment code ${code} was given for two orders on the old site: ${holder.orderId} and ${orderId}. Check M-Pesa before approving either.`;
  await appendStaffNote(db, holder.kind, holder.orderId, `FLAG: ${both}`);
  step.note(`line ${line}: payment code ${code} is on two orders (${holder.orderId}, ${orderId}): both imported and flagged for staff`);
  return { reference, flag: `FLAG: ${both} This order's code is kept as ${reference}, so that one payment cannot approve both.` };
}

/**
 * An imported order's staff notes, as dated entries: what staff wrote on the old site (dated as
 * the old site dated it), then the import's own entry (its flags and the old reference). Nothing
 * is cut.
 */
const importedNotes = (oldNote: string, oldAt: string, flags: (string | null)[], oldId: string) =>
  joinEntries(
    oldNote ? noteEntry(`On the old site: ${oldNote}`, oldAt) : null,
    noteEntry([`${FROM_OLD_SITE} (order ${oldId}).`, ...flags.filter((f): f is string => !!f)].join("\n")),
  );

// ---------------------------------------------------------------- badge orders

const OLD_ORDER_TIME = /^order_(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})_/;

/** The portrait file an old order points at, found in data/badge_orders/ by its name. */
function portraitFileOf(ctx: RunContext, id: string, portraitPath: string): { name: string; bytes: Buffer } | null {
  const names = portraitPath ? [path.basename(portraitPath.replace(/\\/g, "/"))] : ["png", "jpg", "jpeg", "webp", "svg"].map((ext) => `${id}_portrait.${ext}`);
  for (const name of names) {
    const bytes = readOldBytes(ctx, `data/badge_orders/${name}`);
    if (bytes) return { name, bytes };
  }
  return null;
}

export async function importBadgeOrdersFile(ctx: RunContext, db: Db) {
  const step = await FileStep.open(ctx, db, "badge_order", "data/badge_orders.json", "badge orders");
  const body = readOldFile(ctx, step.report.file);
  if (body === null) step.missing();
  else {
    for (const { line, value } of listOf(step, body)) {
      const o = asObject(value);
      if (!o) {
        step.refuse(line, "not a badge order (an object)");
        continue;
      }
      const oldId = text(o.id) || `line-${crypto.createHash("sha256").update(JSON.stringify(o)).digest("hex").slice(0, 16)}`;
      if (step.seen(oldId)) {
        step.skipped();
        continue;
      }
      await step.record(line, async () => {
        const who = `order ${oldId}`;
        const notes: string[] = [];
        const review: string[] = [];
        const name = text(o.name) || "(no name on the old order)";
        if (!text(o.name)) review.push(`${who} has no name`);
        if (name.length > NAME_MAX_LENGTH) review.push(`${who}: the name is ${name.length} characters (this site takes ${NAME_MAX_LENGTH}); kept whole`);
        const email = emailOf(o.email, who, review);
        const oldAmount = leadingInt(o.amount);
        let tier = findTier(text(o.tierKey));
        if (!tier) {
          // Kept under the tier its amount or name matches, else the highest, for staff to decide.
          tier = TIERS.find((t) => t.amount === oldAmount) ?? TIERS.find((t) => t.name.toLowerCase() === text(o.tierName).toLowerCase()) ?? TIERS[TIERS.length - 1]!;
          review.push(`${who}: unknown tier "${text(o.tierKey)}" ("${text(o.tierName)}", t1 to t5 here); shown as ${tier.name} until staff decide`);
        }
        const code = codeOf(o.paymentReference, who, review);
        const stamp = OLD_ORDER_TIME.exec(oldId);
        let createdAt = isoTime(o.createdAt) ?? (stamp ? `${stamp[1]}-${stamp[2]}-${stamp[3]}T${stamp[4]}:${stamp[5]}:${stamp[6]}.000Z` : null);
        if (!createdAt) {
          review.push(`${who} has no readable createdAt ("${text(o.createdAt)}"); dated as imported`);
          createdAt = nowIso();
        }
        const oldStatus = statusOf(o.status, notes);
        const status = review.length ? "pending" : oldStatus;
        if (review.length && oldStatus !== "pending") review.push(`the old site had it ${oldStatus}`);
        const t = tier;
        if (oldAmount !== t.amount) notes.push(`the old site recorded ${oldAmount === null ? "no amount" : formatMoney(oldAmount)}; the ${t.name} tier is ${formatMoney(t.amount)}, which is what this order now says. Check the M-Pesa amount.`);
        if (text(o.tierName) && text(o.tierName) !== t.name) notes.push(`the old site called the tier "${text(o.tierName)}"`);
        const phone = phoneOf(o.phone, notes);

        let portrait: Buffer | null = null;
        const file = portraitFileOf(ctx, oldId, text(o.portraitPath));
        if (file) {
          try {
            portrait = await processPortrait(file.bytes);
          } catch (e) {
            notes.push(`its portrait ${file.name} was left out: ${(e as Error).message}`);
          }
        } else if (text(o.portraitPath)) notes.push(`its portrait ${path.basename(text(o.portraitPath))} is not in data/badge_orders/`);

        const id = await unusedOrderId(db, "badge_orders", "BO");
        const placed = code ? await placeCode(db, step, line, code, "badge", id) : { reference: await typedReference(db, text(o.paymentReference), "badge", oldId), flag: null };
        const updatedAt = isoTime(o.updatedAt);
        const oldNote = text(o.adminNote);
        const row: BadgeOrdersTable = {
          id,
          tier_key: t.key,
          tier_name: t.name,
          amount: t.amount,
          name,
          email,
          phone,
          payment_reference: placed.reference,
          hard_copy: phpBool(o.hardCopy) ? 1 : 0,
          notes: text(o.notes),
          share_url: tierShareUrl(t.key),
          status,
          created_at: createdAt,
          approved_at: status === "approved" ? (isoTime(o.approvedAt) ?? updatedAt ?? createdAt) : null,
          rejected_at: status === "rejected" ? (updatedAt ?? createdAt) : null,
          portrait_file: portrait ? PORTRAIT_FILE : null,
          badge_file: null,
          poster_file: null,
          asset_token: randomToken(),
          delivery_outbox_id: null,
          staff_note: importedNotes(oldNote, updatedAt ?? isoTime(o.approvedAt) ?? createdAt, [review.length ? reviewEntry(review, o) : null, placed.flag, ...notes.map((n) => `${FROM_OLD_SITE}: ${n}`)], oldId),
          // The old site showed its notes to staff only.
          supporter_note: "",
          wall_opt_in: 0,
          wall_name: "",
          wall_portrait: 0,
          wall_hidden: 0,
          wall_key: randomToken(),
          checked_in_at: null,
          reminder_for: null,
          badge_revoked_at: null,
          badge_revocation_reason: "",
        };
        await importBadgeOrder(db, row, ctx.dryRun ? null : portrait);
        // An order the old site approved gets its badge and poster drawn here (the old admin drew
        // them in a browser; none came with the files), so its page offers them; no mail is sent.
        if (status === "approved" && !ctx.dryRun) {
          try {
            await generateBadgeAssets(db, id, system("old site import (npm run import:legacy)"));
          } catch (e) {
            step.note(`line ${line}: ${who} (${id}): its badge and poster could not be drawn (${(e as Error).message}); staff can draw them from the order`);
          }
        }
        step.added();
        if (review.length) step.review(line, `${who} (${id}) imported as pending for staff to review: ${review.join("; ")}`);
        for (const n of notes) step.note(`line ${line}: ${who} (${id}): ${n}`);
        step.take(oldId, id);
      });
    }
  }
  await step.close();
  return step.report;
}

// ---------------------------------------------------------------- merch orders

/** The catalogue item an old order line names: by id, else slug, else name. */
function itemFor(catalogue: MerchItem[], line: Record<string, unknown>): MerchItem | undefined {
  const id = text(line.itemId);
  const name = text(line.name).toLowerCase();
  return catalogue.find((i) => i.id === id) ?? catalogue.find((i) => i.slug === id) ?? catalogue.find((i) => i.name.toLowerCase() === name);
}

/**
 * An old order's lines, priced from the catalogue (the old site took prices and totals from the
 * shopper's browser); a line whose item is not in the catalogue keeps its old price, flagged.
 */
function priceOldLines(catalogue: MerchItem[], items: unknown[], who: string, notes: string[], review: string[]) {
  const lines: PricedLine[] = [];
  for (const [i, raw] of items.entries()) {
    const l = asObject(raw) ?? {};
    if (!asObject(raw)) review.push(`${who}: item ${i + 1} is not an order line (${JSON.stringify(raw)})`);
    let quantity = typeof l.quantity === "number" ? l.quantity : Number(text(l.quantity));
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > 1000) {
      review.push(`${who}: item ${i + 1} has the quantity ${JSON.stringify(l.quantity ?? null)}; counted as 1`);
      quantity = 1;
    }
    const item = itemFor(catalogue, l);
    const oldPrice = typeof l.price === "number" ? l.price : Number(text(l.price));
    const colorRaw = asObject(l.color);
    const colorLabel = colorRaw ? text(colorRaw.label) : text(l.color);
    const color: MerchColor | null = colorLabel
      ? (item?.colors.find((c) => c.label === colorLabel) ?? { label: colorLabel, swatch: /^#[0-9a-fA-F]{3,6}$/.test(text(colorRaw?.swatch)) ? text(colorRaw?.swatch) : "#000000" })
      : null;
    let price = item ? item.price : Math.round(oldPrice);
    if (!item) {
      if (!Number.isFinite(oldPrice) || oldPrice < 0) {
        review.push(`${who}: item ${i + 1} (${text(l.name) || text(l.itemId)}) is not in the catalogue and has no price; priced at ${formatMoney(0)}`);
        price = 0;
      } else notes.push(`"${text(l.name) || text(l.itemId)}" is not in the catalogue: priced at the old line's ${formatMoney(Math.round(oldPrice))}`);
    } else if (Number.isFinite(oldPrice) && Math.round(oldPrice) !== item.price) {
      notes.push(`${item.name}: the old line said ${formatMoney(Math.round(oldPrice))}, the catalogue ${formatMoney(item.price)} (used)`);
    }
    lines.push({
      itemId: item?.id ?? text(l.itemId),
      name: item?.name ?? (text(l.name) || text(l.itemId) || `item ${i + 1}`),
      price,
      quantity,
      color,
      size: text(l.size) || null,
    });
  }
  return lines;
}

export async function importMerchOrdersFile(ctx: RunContext, db: Db) {
  const step = await FileStep.open(ctx, db, "merch_order", "data/merch_orders.jsonl", "merch orders");
  const body = readOldFile(ctx, step.report.file);
  if (body === null) step.missing();
  else {
    const catalogue = await catalogueItems(db);
    for (const entry of readJsonLines(body)) {
      const { line } = entry;
      if ("error" in entry) {
        step.refuse(line, entry.error, entry.raw);
        continue;
      }
      const o = asObject(entry.value);
      if (!o) {
        step.refuse(line, "not a merch order (an object)");
        continue;
      }
      // As the old site named an order without an id when it loaded the file.
      const oldId = text(o.id) || `legacy_${crypto.createHash("md5").update(text(o.ts) || entry.raw).digest("hex").slice(0, 12)}`;
      if (step.seen(oldId)) {
        step.skipped();
        continue;
      }
      await step.record(line, async () => {
        const who = `order ${oldId}`;
        const notes: string[] = [];
        const review: string[] = [];
        const customerName = text(o.customerName) || "(no name on the old order)";
        if (!text(o.customerName)) review.push(`${who} has no customer name`);
        if (customerName.length > NAME_MAX_LENGTH) review.push(`${who}: the name is ${customerName.length} characters (this site takes ${NAME_MAX_LENGTH}); kept whole`);
        const email = emailOf(o.customerEmail, who, review);
        const code = codeOf(o.paymentReference, who, review);
        let ts = isoTime(o.ts);
        if (!ts) {
          review.push(`${who} has no readable time (ts "${text(o.ts)}"); dated as imported`);
          ts = nowIso();
        }
        if (!Array.isArray(o.items) || o.items.length === 0) review.push(`${who} has no items`);
        const lines = priceOldLines(catalogue, Array.isArray(o.items) ? (o.items as unknown[]) : [], who, notes, review);
        const total = lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
        const currency = catalogue.find((i) => lines.some((l) => l.itemId === i.id))?.currency ?? "KES";
        const oldTotal = typeof o.total === "number" ? o.total : Number(text(o.total));
        if (!Number.isFinite(oldTotal) || Math.round(oldTotal) !== total) {
          notes.push(`the old site recorded a total of ${Number.isFinite(oldTotal) ? formatMoney(Math.round(oldTotal)) : "nothing"} (prices came from the shopper's browser); catalogue prices give ${formatMoney(total)}. Check the M-Pesa amount.`);
        }
        if (text(o.currency) && text(o.currency).toUpperCase() !== currency) notes.push(`the old order said ${text(o.currency)}; the catalogue prices it in ${currency}`);
        const oldStatus = statusOf(o.status, notes);
        const status = review.length ? "pending" : oldStatus;
        if (review.length && oldStatus !== "pending") review.push(`the old site had it ${oldStatus}`);
        const phone = phoneOf(o.customerPhone, notes);
        const id = await unusedOrderId(db, "merch_orders", "MO");
        const placed = code ? await placeCode(db, step, line, code, "merch", id) : { reference: await typedReference(db, text(o.paymentReference), "merch", oldId), flag: null };
        const row: MerchOrdersTable = {
          id,
          customer_name: customerName,
          customer_email: email,
          customer_phone: phone,
          notes: text(o.notes),
          payment_reference: placed.reference,
          total,
          currency,
          items: JSON.stringify(lines),
          status,
          ts,
          reviewed_at: status === "pending" ? null : isoTime(o.reviewedAt),
          staff_notes: importedNotes(text(o.staffNotes), isoTime(o.reviewedAt) ?? ts, [review.length ? reviewEntry(review, o) : null, placed.flag, ...notes.map((n) => `${FROM_OLD_SITE}: ${n}`)], oldId),
          // The old site's 'confirmed' email carried no note: staff's notes stay staff's.
          supporter_note: "",
          view_token: randomToken(24),
          // An order the old site approved had its 'confirmed' email then: never sent again here.
          confirmation_sent_at: status === "approved" ? (isoTime(o.reviewedAt) ?? ts) : null,
        };
        await importMerchOrder(db, row);
        step.added();
        if (review.length) step.review(line, `${who} (${id}) imported as pending for staff to review: ${review.join("; ")}`);
        for (const n of notes) step.note(`line ${line}: ${who} (${id}): ${n}`);
        step.take(oldId, id);
      });
    }
  }
  await step.close();
  return step.report;
}
