import { parseWithZod } from "@conform-to/zod/v4";
import { data, type AppLoadContext } from "react-router";
import type { z } from "zod";
import { HONEYPOT_FIELD, type FormReply } from "./forms";
import { clientAddress, HttpError, readBodyText } from "./http.server";
import { consume, tooManyMessage, type LimitRule } from "./rate-limit.server";

export const FORM_UNREADABLE = "That form could not be read. Please try sending it again.";

/** Reads a url-encoded form body with a size limit (a plain form, JavaScript or not). */
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

function typedValues(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of formData) {
    if (typeof v === "string" && k !== HONEYPOT_FIELD && !k.startsWith("_")) out[k] = v.slice(0, 2000);
  }
  return out;
}

type HandleFormOptions<S extends z.ZodType, R> = {
  request: Request;
  context: AppLoadContext | undefined;
  schema: S;
  limit: { name: string; rule: LimitRule };
  /** Runs with the valid input; its return value is put in the reply's `result`. */
  run: (value: z.output<S>, formData: FormData) => Promise<R>;
  /** Largest body accepted (default 32 KB; forms with uploads set more). */
  maxBytes?: number;
  formData?: FormData;
};

/**
 * The action recipe for public forms: honeypot, zod parse, per-address limit, one feature
 * call. Bad input is a 400 reply that keeps what was typed; the limit is a 429.
 */
export async function handleForm<S extends z.ZodType, R extends Record<string, string | number> | void>(
  opts: HandleFormOptions<S, R>,
) {
  let formData: FormData;
  try {
    formData = opts.formData ?? (await readForm(opts.request, opts.maxBytes));
  } catch (e) {
    if (e instanceof HttpError) {
      return data<FormReply>({ status: "error", detail: e.message }, e.status);
    }
    throw e;
  }
  const values = typedValues(formData);
  const trap = formData.get(HONEYPOT_FIELD);
  if (typeof trap === "string" && trap.trim() !== "") {
    // Looks like a bot: answer as if all went well, keep nothing.
    return data<FormReply>({ status: "success" }, 200);
  }
  const submission = parseWithZod(formData, { schema: opts.schema });
  if (submission.status !== "success") {
    const fieldErrors: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(submission.error ?? {})) if (v) fieldErrors[k] = v;
    return data<FormReply>({ status: "error", fieldErrors, values }, 400);
  }
  // Only well-formed submissions count against the limit: a typo costs nothing.
  const limited = await consume(opts.limit.name, opts.limit.rule, clientAddress(opts.context));
  if (!limited.ok) {
    return data<FormReply>(
      {
        status: "error",
        detail: tooManyMessage(limited.retryAfterSeconds),
        retryAfter: limited.retryAfterSeconds,
        values,
      },
      { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } },
    );
  }
  let result: R;
  try {
    result = await opts.run(submission.value as z.output<S>, formData);
  } catch (e) {
    if (e instanceof HttpError) {
      const reply: FormReply = e.field
        ? { status: "error", fieldErrors: { [e.field]: [e.message] }, values }
        : { status: "error", detail: e.message, values };
      return data<FormReply>(reply, e.status);
    }
    // Nothing was saved and the visitor is told so (with the spec's email fallback).
    console.error("[form] could not complete a submission", e);
    return data<FormReply>({ status: "error", detail: "the server could not save it", values }, 500);
  }
  return data<FormReply>({ status: "success", result: result ?? undefined }, 200);
}
