import { data, type AppLoadContext } from "react-router";
import { CHECK_IN_INTENTS, CHECK_IN_TEXT, TICKET_PHOTO_MAX_BYTES, type CheckInIntent, type CheckInOutcome } from "~/features/event-badges/check-in";
import {
  checkIn,
  checkInCounts,
  doorEntryOf,
  findAtDoor,
  orderOfTicket,
  RefusedAtDoor,
  ReferenceSchema,
  TicketSchema,
  CHECK_IN_MESSAGES,
  missingAtDoor,
  type CheckInInput,
} from "~/features/event-badges/check-in.server";
import { readQrFromPhoto } from "~/features/event-badges/ticket-photo.server";
import { ticketFromScan, CHECK_IN_PATH } from "~/features/event-badges/ticket";
import type { Reply } from "~/lib/core/forms";
import { formOf, intentOf, readForm, replyFromError, submissionOf, type Submission } from "~/lib/forms/submission.server";
import { requireStaff } from "~/features/admin/staff-auth.server";
import type { Actor } from "~/lib/core/actor";

/** The door screen's data: the counts, a search's results (?q=), a ticket opened from its QR code (?ticket=). */
export async function loadCheckInScreen(request: Request, url: URL, context: AppLoadContext) {
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 80);
  const ticket = (url.searchParams.get("ticket") ?? "").trim().slice(0, 100);
  const [counts, results] = await Promise.all([checkInCounts(context.db), findAtDoor(context.db, q)]);
  // A ticket opened by a phone's own camera app: shown with a button, never checked in by a GET.
  let opened: { ticket: string; entry: Awaited<ReturnType<typeof doorEntryOf>>; problem: string | null } | null = null;
  if (ticket) {
    const id = orderOfTicket(ticket);
    const entry = id ? await doorEntryOf(context.db, id) : null;
    opened = { ticket, entry, problem: id ? (entry ? null : await missingAtDoor(context.db, id)) : CHECK_IN_MESSAGES.forged };
  }
  return { counts, q, results, opened };
}

type CheckInReply = Reply<CheckInOutcome>;
const reply = (body: CheckInReply, status: number) => data(body, status);

/** Which form sent it, and what it asks to check in. */
async function inputOf(intent: CheckInIntent, form: FormData): Promise<CheckInInput | string> {
  if (intent === "check-in") {
    const parsed = ReferenceSchema.safeParse({ reference: String(form.get("reference") ?? "") });
    return parsed.success ? parsed.data : (parsed.error.issues[0]?.message ?? "A reference looks like BO-ABC123.");
  }
  let scanned: string;
  if (intent === "scan") {
    scanned = String(form.get("token") ?? "");
  } else {
    const photo = form.get("photo");
    if (!(photo instanceof File) || photo.size === 0) return CHECK_IN_TEXT.noPhoto;
    if (photo.size > TICKET_PHOTO_MAX_BYTES) return CHECK_IN_TEXT.tooLarge;
    let text: string | null;
    try {
      text = await readQrFromPhoto(Buffer.from(await photo.arrayBuffer()));
    } catch {
      return CHECK_IN_TEXT.notAPicture;
    }
    if (!text) return CHECK_IN_TEXT.noCode;
    scanned = text;
  }
  const parsed = TicketSchema.safeParse({ token: ticketFromScan(scanned) });
  return parsed.success ? parsed.data : (parsed.error.issues[0]?.message ?? CHECK_IN_MESSAGES.forged);
}

const isDoorIntent = (intent: string): intent is CheckInIntent => (CHECK_IN_INTENTS as readonly string[]).includes(intent);

/** POST /admin/check-in: a scanned ticket (decoded in the browser, or from a photo here) or a typed reference. */
export async function checkInAction(request: Request, context: AppLoadContext) {
  const actor = await requireStaff(request, context, CHECK_IN_PATH);
  let submission: Submission;
  try {
    submission = submissionOf(await readForm(request, TICKET_PHOTO_MAX_BYTES + 64 * 1024));
  } catch (e) {
    return replyFromError<CheckInOutcome>(e, {}, { asMessage: true });
  }
  const intent = intentOf(submission);
  if (!isDoorIntent(intent)) return reply({ status: "error", message: "Unknown action." }, 400);
  try {
    // What it asks to check in, read here (a photo is decoded on the server), then checked in.
    const input = await inputOf(intent, formOf(submission));
    if (typeof input === "string") return reply({ status: "error", message: input, intent }, 400);
    return await checkInAtDoor(context, input, actor, intent);
  } catch (e) {
    return replyFromError<CheckInOutcome>(e, { intent }, { asMessage: true });
  }
}

async function checkInAtDoor(context: AppLoadContext, input: CheckInInput, actor: Actor, intent: CheckInIntent) {
  const db = context.db;
  let done: Awaited<ReturnType<typeof checkIn>>;
  try {
    done = await checkIn(db, input, actor);
  } catch (e) {
    if (!(e instanceof RefusedAtDoor)) throw e;
    // Refused in red with the reason, and who it is (a portrait helps to find them).
    const result = { entry: e.entry, already: false, checkedInAt: null, counts: await checkInCounts(db) };
    return reply({ status: "error", message: e.message, intent, result }, 409);
  }
  const [entry, counts] = await Promise.all([doorEntryOf(db, done.order.id), checkInCounts(db)]);
  if (!entry) return reply({ status: "error", message: CHECK_IN_MESSAGES.notFound, intent }, 404);
  return reply(
    { status: done.already ? "error" : "success", intent, result: { entry, already: done.already, checkedInAt: done.checkedInAt, counts } },
    // 'Already checked in' is an answer, not a failure: 200, flagged on the page.
    200,
  );
}
