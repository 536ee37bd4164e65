import { parseWithZod } from "@conform-to/zod/v4";
import { data, type AppLoadContext } from "react-router";
import type { z } from "zod";
import { FORM_UNREADABLE, HONEYPOT_FIELD, type Reply, type Submission } from "../core/forms";

export { FORM_UNREADABLE };
import { clientAddress, HttpError, httpErrorOf, readBodyText, readObjectBody } from "../http/http.server";
import { consume, tooManyMessage, type LimitRule } from "../server/rate-limit.server";

/**
 * The steps every action takes, HTML form or JSON call, each a plain function the action calls
 * in order: read the body once (`readSubmission`), the honeypot (`trippedHoneypot`), the
 * schema (`parseSubmission`, one parse for forms and JSON), the per-address limit
 * (`requireWithinLimit`), the domain call, and a refusal turned into the reply
 * (`replyFromError`). Staff screens call `requireStaff` (the admin feature) first.
 */


export type { Submission };

/** Reads a form body with a size limit (a plain form, JavaScript or not). */
export async function readForm(request: Request, maxBytes = 32 * 1024): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("multipart/form-data")) {
    const declared = Number(request.headers.get("content-length") ?? "NaN");
    if (!Number.isFinite(declared) || declared > maxBytes) {
      throw new HttpError(413, "That form is too large to send.");
    }
    try {
      return await request.formData();
    } catch {
      // A broken multipart body (no boundary, cut off, not multipart at all).
      throw new HttpError(400, FORM_UNREADABLE);
    }
  }
  const text = await readBodyText(request, maxBytes);
  const fd = new FormData();
  for (const [k, v] of new URLSearchParams(text)) fd.append(k, v);
  return fd;
}

const isFormType = (type: string) => type.includes("multipart/form-data") || type.includes("application/x-www-form-urlencoded");

/** A form already read, as a submission (its text fields; the first of repeated names). */
export function submissionOf(form: FormData): Submission {
  const fields: Record<string, unknown> = {};
  for (const [k, v] of form) if (typeof v === "string" && !(k in fields)) fields[k] = v;
  return { form, fields };
}

/** The submission as a form (a JSON body's text fields become one), for Conform's parser. */
export function formOf(submission: Submission): FormData {
  if (submission.form) return submission.form;
  const form = new FormData();
  for (const [k, v] of Object.entries(submission.fields)) if (typeof v === "string") form.append(k, v);
  return form;
}

/** Reads the body once: a form (url-encoded or multipart), or else a JSON object. */
export async function readSubmission(request: Request, maxBytes = 32 * 1024): Promise<Submission> {
  if (isFormType(request.headers.get("content-type") ?? "")) return submissionOf(await readForm(request, maxBytes));
  return { form: null, fields: await readObjectBody(request, maxBytes) };
}

/** The form a body names in its `intent` field (at most 40 characters), or `fallback` when it names none. */
export function intentOf(submission: Submission, fallback = ""): string {
  const intent = submission.fields.intent;
  return typeof intent === "string" && intent ? intent.slice(0, 40) : fallback;
}

/** What a schema made of the input: the value, or every problem by field and the first as a sentence. */
export type Parsed<T> =
  | { ok: true; value: T }
  | { ok: false; fieldErrors: Record<string, string[]>; message: string; first: string | undefined };

/**
 * The one schema parse. A form is read by Conform, as a browser sent it (empty inputs are
 * absent); an object (a JSON body, a query) by the schema itself.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: FormData | Record<string, unknown>): Parsed<z.output<S>> {
  const fieldErrors: Record<string, string[]> = {};
  if (input instanceof FormData) {
    const parsed = parseWithZod(input, { schema });
    if (parsed.status === "success") return { ok: true, value: parsed.value as z.output<S> };
    for (const [k, v] of Object.entries(parsed.error ?? {})) if (v) fieldErrors[k] = v;
  } else {
    const parsed = schema.safeParse(input);
    if (parsed.success) return { ok: true, value: parsed.data };
    for (const issue of parsed.error.issues) (fieldErrors[issue.path.join(".")] ??= []).push(issue.message);
  }
  const [field, messages] = Object.entries(fieldErrors).find(([, v]) => v.length > 0) ?? ["", []];
  return { ok: false, fieldErrors, message: sentence(field, messages[0] ?? "Invalid request."), first: messages[0] };
}

/** A submission through its schema: the form as Conform reads it, or with `how: "fields"` (and for JSON) its fields. */
export function parseSubmission<S extends z.ZodType>(
  submission: Submission,
  schema: S,
  how: "form" | "fields" = submission.form ? "form" : "fields",
): Parsed<z.output<S>> {
  return parseInput(schema, how === "form" && submission.form ? submission.form : submission.fields);
}

/**
 * A form's per-address limit, counted once its submission is well-formed (a typo costs
 * nothing). Over the limit: an HttpError 429 saying how long to wait.
 */
export async function requireWithinLimit(context: AppLoadContext | undefined, name: string, rule: LimitRule) {
  const limited = await consume(name, rule, clientAddress(context));
  if (!limited.ok) {
    throw new HttpError(429, tooManyMessage(limited.retryAfterSeconds), { "Retry-After": String(limited.retryAfterSeconds) });
  }
}

/** The reply to input a schema refused: a 400 with every problem on its field (and what else `reply` carries). */
export function invalidReply<R = never>(parsed: { fieldErrors: Record<string, string[]> }, reply: Omit<Reply<R>, "status"> = {}) {
  return data<Reply<R>>({ status: "error", fieldErrors: parsed.fieldErrors, ...reply }, 400);
}

/**
 * The reply to a refusal (an HttpError, a DomainError, the database away for a moment): its
 * sentence on its field (or, with `asMessage`, as the form's message, as staff screens show
 * it), with its status and headers, plus what `reply` carries (the intent, what was typed). A
 * rate limit also says how long to wait. Anything else is thrown on, unless `unexpected` words
 * it: then it is logged and answered with a 500.
 */
export function replyFromError<R = never>(
  e: unknown,
  reply: Omit<Reply<R>, "status"> = {},
  how: { unexpected?: string; asMessage?: boolean } = {},
) {
  const http = httpErrorOf(e);
  if (!http) {
    if (how.unexpected === undefined) throw e;
    console.error("[form] could not complete a submission", e);
    return data<Reply<R>>({ status: "error", message: how.unexpected, ...reply }, 500);
  }
  const said: Omit<Reply<R>, "status"> = http.field && !how.asMessage ? { fieldErrors: { [http.field]: [http.message] } } : { message: http.message };
  const wait = http.status === 429 ? Number(http.headers["Retry-After"]) : NaN;
  if (Number.isFinite(wait)) said.retryAfter = wait;
  return data<Reply<R>>({ status: "error", ...said, ...reply }, { status: http.status, headers: http.headers });
}

/** What a form's visitor is told when the server failed to save it (with the spec's email fallback). */
export const NOT_SAVED = "the server could not save it";

/** The answer to a form this page does not have. */
export const unknownIntent = (intent: string) =>
  data<Reply<never>>({ status: "error", message: "This page does not know that form.", intent }, 400);

/** What was typed, so a form that failed keeps it (never the honeypot or private fields). */
export function typedValues(submission: Submission): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(submission.fields)) {
    if (typeof v === "string" && k !== HONEYPOT_FIELD && !k.startsWith("_")) out[k] = v.slice(0, 2000);
  }
  return out;
}

export const trippedHoneypot = (submission: Submission) => {
  const trap = submission.fields[HONEYPOT_FIELD];
  return typeof trap === "string" && trap.trim() !== "";
};

/** Our own messages are sentences; zod's generic ones get the field name in front. */
function sentence(field: string, message: string) {
  const generic = /^(Invalid (input|option|string|key|element|union)|Too (small|big)|Unrecognized key)/.test(message);
  const plain = !generic && (/^[A-Z]/.test(message) || (!!field && message.startsWith(field)));
  return plain ? message : `${field || "request"}: ${message}`;
}

/** Parses with a schema outside a submission (admin JSON, queries): the first problem is a 400. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = parseInput(schema, input as Record<string, unknown>);
  if (parsed.ok) return parsed.value;
  throw new HttpError(400, parsed.message);
}
