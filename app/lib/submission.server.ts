import { parseWithZod } from "@conform-to/zod/v4";
import { data, type AppLoadContext } from "react-router";
import type { z } from "zod";
import { HONEYPOT_FIELD, type Reply } from "./forms";
import { clientAddress, HttpError, httpErrorOf, onRefusal, readBodyText, readObjectBody } from "./http.server";
import { consume, tooManyMessage, type LimitRule } from "./rate-limit.server";

/**
 * One road for every submission, HTML form or JSON call: the body is read once, then
 * honeypot → schema → per-address limit → the feature call. `handleForm` words the outcome as
 * a form reply; `acceptJson` as the legacy JSON answers.
 */

export const FORM_UNREADABLE = "That form could not be read. Please try sending it again.";

/** A request body, read once. */
export type Submission = {
  /** The form as sent (url-encoded or multipart), or null for a JSON body. */
  form: FormData | null;
  /** The body's fields: a form's text fields, or the JSON object. */
  fields: Record<string, unknown>;
};

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
 * sentence on its field, or as the message, with its status and headers, plus what `reply`
 * carries (the intent, what was typed). A rate limit also says how long to wait. Anything else
 * is thrown on, unless `unexpected` words it: then it is logged and answered with a 500.
 */
export function replyFromError<R = never>(e: unknown, reply: Omit<Reply<R>, "status"> = {}, unexpected?: string) {
  const http = httpErrorOf(e);
  if (!http) {
    if (unexpected === undefined) throw e;
    console.error("[form] could not complete a submission", e);
    return data<Reply<R>>({ status: "error", message: unexpected, ...reply }, 500);
  }
  const said: Omit<Reply<R>, "status"> = http.field ? { fieldErrors: { [http.field]: [http.message] } } : { message: http.message };
  const wait = http.status === 429 ? Number(http.headers["Retry-After"]) : NaN;
  if (Number.isFinite(wait)) said.retryAfter = wait;
  return data<Reply<R>>({ status: "error", ...said, ...reply }, { status: http.status, headers: http.headers });
}

/** What a form's visitor is told when the server failed to save it (with the spec's email fallback). */
export const NOT_SAVED = "the server could not save it";

/** What a page action sends back: a Reply with its status (and headers). */
export type PageAnswer = ReturnType<typeof data<Reply<never>>>;

type PageOptions = {
  maxBytes?: number;
  /** The intent of a form that sends none. */
  fallback?: string;
  /** The form that shows an unreadable body's error. */
  intentOnFailure?: string;
  /** How this page words a refusal it answers itself (an unreadable body, an unknown form). */
  words?: (message: string, status: number) => string;
  /** Reads the body another way (a form with a large upload, streamed to disk). */
  read?: (request: Request) => Promise<Submission>;
};

/** A page's read body and the form it names. */
export type Page = { submission: Submission; intent: string };

/**
 * The start of every page action, one form or several: the body is read once and its intent
 * named (`fallback` for a form that sends none). The handlers get the submission; nobody reads
 * the request again. An unreadable or oversized body is answered here, for the form
 * `intentOnFailure` names (the one that shows the error).
 */
export async function readPage(request: Request, opts: PageOptions = {}): Promise<Page | { answer: PageAnswer }> {
  return onRefusal(
    async () => {
      const submission = opts.read ? await opts.read(request) : await readSubmission(request, opts.maxBytes);
      const intent = submission.fields.intent;
      return { submission, intent: typeof intent === "string" && intent ? intent.slice(0, 40) : (opts.fallback ?? "") };
    },
    (http) => {
      const intent = opts.intentOnFailure ? { intent: opts.intentOnFailure } : {};
      const message = opts.words ? opts.words(http.message, http.status) : http.message;
      return { answer: data<Reply<never>>({ status: "error", message, ...intent }, { status: http.status, headers: http.headers }) };
    },
  );
}

/** The answer to a form this page does not have. */
export const unknownIntent = (intent: string, words?: PageOptions["words"]) => {
  const message = "This page does not know that form.";
  return data<Reply<never>>({ status: "error", message: words ? words(message, 400) : message, intent }, 400);
};

/**
 * A page with several forms: the body read once, then the form its intent names answers
 * (`forms`, one handler each); an unreadable body or an unknown intent is answered here.
 */
export async function answerPage<F extends Record<string, (page: Page) => Promise<unknown>>>(
  request: Request,
  forms: F,
  opts: PageOptions = {},
): Promise<Awaited<ReturnType<F[keyof F]>> | PageAnswer> {
  const page = await readPage(request, opts);
  if ("answer" in page) return page.answer;
  const form = Object.hasOwn(forms, page.intent) ? forms[page.intent] : undefined;
  if (!form) return unknownIntent(page.intent, opts.words);
  return (await form(page)) as Awaited<ReturnType<F[keyof F]>>;
}

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

export type Intake<T> =
  | { kind: "trap" }
  | { kind: "invalid"; fieldErrors: Record<string, string[]>; message: string }
  | { kind: "limited"; retryAfterSeconds: number; message: string }
  | { kind: "ok"; value: T };

/** Our own messages are sentences; zod's generic ones get the field name in front. */
function sentence(field: string, message: string) {
  const generic = /^(Invalid (input|option|string|key|element|union)|Too (small|big)|Unrecognized key)/.test(message);
  const plain = !generic && (/^[A-Z]/.test(message) || (!!field && message.startsWith(field)));
  return plain ? message : `${field || "request"}: ${message}`;
}

/**
 * Honeypot → schema → limit. Only well-formed submissions count against the limit: a typo
 * costs nothing. A form is parsed by Conform (empty inputs are absent), JSON by the schema.
 */
export async function intake<S extends z.ZodType>(
  submission: Submission,
  schema: S,
  limit: { name: string; rule: LimitRule } | null,
  context: AppLoadContext | undefined,
  /** "form": Conform reads the form as a browser sent it; "fields": the schema reads the fields. */
  how: "form" | "fields" = submission.form ? "form" : "fields",
): Promise<Intake<z.output<S>>> {
  if (trippedHoneypot(submission)) return { kind: "trap" };
  const parsed = parseSubmission(submission, schema, how);
  if (!parsed.ok) return { kind: "invalid", fieldErrors: parsed.fieldErrors, message: parsed.message };
  const value = parsed.value;
  if (limit) {
    const limited = await consume(limit.name, limit.rule, clientAddress(context));
    if (!limited.ok) {
      return { kind: "limited", retryAfterSeconds: limited.retryAfterSeconds, message: tooManyMessage(limited.retryAfterSeconds) };
    }
  }
  return { kind: "ok", value };
}

/** Parses with a schema outside a submission (admin JSON, queries): the first problem is a 400. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = parseInput(schema, input as Record<string, unknown>);
  if (parsed.ok) return parsed.value;
  throw new HttpError(400, parsed.message);
}

type HandleFormOptions<S extends z.ZodType, R> = {
  /** The request to read, unless the route has read it already (`submission`). */
  request?: Request;
  context: AppLoadContext | undefined;
  schema: S;
  limit: { name: string; rule: LimitRule };
  /** Runs with the valid input; its return value is put in the reply's `result`. */
  run: (value: z.output<S>, submission: Submission) => Promise<R>;
  /** Largest body accepted (default 32 KB; forms with uploads set more). */
  maxBytes?: number;
  /** A body the route already read (pages with several forms read once, then dispatch). */
  submission?: Submission;
  /** Put in every reply, so a page with several forms knows whose answer it is. */
  intent?: string;
};

/**
 * The HTML action recipe: read once, intake, one feature call. Bad input is a 400 reply that
 * keeps what was typed; the limit is a 429; a feature's DomainError keeps its field.
 */
export async function handleForm<S extends z.ZodType, R extends object | void = void>(
  opts: HandleFormOptions<S, R>,
) {
  type Out = Reply<Exclude<R, void>>;
  const intent = opts.intent ? { intent: opts.intent } : {};
  let submission: Submission;
  try {
    if (opts.submission) submission = opts.submission;
    else if (opts.request) submission = await readSubmission(opts.request, opts.maxBytes);
    else throw new Error("handleForm needs a request or a submission");
  } catch (e) {
    const http = httpErrorOf(e);
    if (http) return data<Out>({ status: "error", message: http.message, ...intent }, http.status);
    throw e;
  }
  const values = typedValues(submission);
  const taken = await intake(submission, opts.schema, opts.limit, opts.context);
  switch (taken.kind) {
    case "trap":
      // Looks like a bot: answer as if all went well, keep nothing.
      return data<Out>({ status: "success", ...intent }, 200);
    case "invalid":
      return data<Out>({ status: "error", fieldErrors: taken.fieldErrors, values, ...intent }, 400);
    case "limited":
      return data<Out>(
        { status: "error", message: taken.message, retryAfter: taken.retryAfterSeconds, values, ...intent },
        { status: 429, headers: { "Retry-After": String(taken.retryAfterSeconds) } },
      );
  }
  let result: R;
  try {
    result = await opts.run(taken.value, submission);
  } catch (e) {
    const http = httpErrorOf(e);
    if (http) {
      const reply: Out = http.field
        ? { status: "error", fieldErrors: { [http.field]: [http.message] }, values, ...intent }
        : { status: "error", message: http.message, values, ...intent };
      return data<Out>(reply, { status: http.status, headers: http.headers });
    }
    // Nothing was saved and the visitor is told so (with the spec's email fallback).
    console.error("[form] could not complete a submission", e);
    return data<Out>({ status: "error", message: "the server could not save it", values, ...intent }, 500);
  }
  return data<Out>({ status: "success", result: (result ?? undefined) as Exclude<R, void> | undefined, ...intent }, 200);
}

/**
 * The JSON adapters' intake: the valid input, or null when a bot filled the honeypot (answer
 * as if all went well). Bad input is an HttpError 400 with the first message; the limit a 429.
 */
export async function acceptJson<S extends z.ZodType>(
  request: Request,
  context: AppLoadContext | undefined,
  schema: S,
  limit: { name: string; rule: LimitRule } | null,
  opts: { maxBytes?: number; submission?: Submission } = {},
): Promise<{ input: z.output<S>; submission: Submission } | null> {
  const submission = opts.submission ?? (await readSubmission(request, opts.maxBytes ?? 16 * 1024));
  const taken = await intake(submission, schema, limit, context, "fields");
  switch (taken.kind) {
    case "trap":
      return null;
    case "invalid":
      throw new HttpError(400, taken.message);
    case "limited":
      throw new HttpError(429, taken.message, { "Retry-After": String(taken.retryAfterSeconds) });
    case "ok":
      return { input: taken.value, submission };
  }
}
