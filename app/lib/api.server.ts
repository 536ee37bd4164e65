import type { AppLoadContext } from "react-router";
import type { z } from "zod";
import { HONEYPOT_FIELD } from "./forms";
import { clientAddress, HttpError, jsonError } from "./http.server";
import { consume, tooManyMessage, type LimitRule } from "./rate-limit.server";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Args = { request: Request; context: AppLoadContext };
type Handler = (args: Args) => Promise<Response>;

/**
 * The legacy /api/*.php endpoints: one handler per method, and every answer JSON, errors
 * too, with a real status code; never an HTML error page.
 */
export function jsonApi(handlers: Partial<Record<Method, Handler>>) {
  const allow = Object.keys(handlers).join(", ");
  const run = async (args: Args): Promise<Response> => {
    const raw = args.request.method.toUpperCase();
    const method = (raw === "HEAD" ? "GET" : raw) as Method;
    const handler = handlers[method];
    if (!handler) return jsonError(405, `Method ${raw} is not allowed here. Use ${allow}.`, { Allow: allow });
    try {
      return await handler(args);
    } catch (e) {
      if (e instanceof HttpError) return jsonError(e.status, e.message, e.headers);
      if (e instanceof Response) return e;
      console.error(`[api] ${raw} ${new URL(args.request.url).pathname} failed`, e);
      return jsonError(500, "Server error. Please try again later.");
    }
  };
  return { loader: run, action: run };
}

/** Parses with a feature's schema; the first problem becomes a 400 with its message. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join(".");
  const message = issue?.message ?? "Invalid request.";
  // Our own messages are sentences; zod's generic ones get the field name in front.
  // zod's own messages ("Invalid input: ...") get the field in front; ours are sentences.
  const generic = /^(Invalid (input|option|string|key|element|union)|Too (small|big)|Unrecognized key)/.test(message);
  const plain = !generic && (/^[A-Z]/.test(message) || (!!field && message.startsWith(field)));
  throw new HttpError(400, plain ? message : `${field || "request"}: ${message}`);
}

/** Throws a 429 when the caller's address is over the limit. */
export async function enforceLimit(context: AppLoadContext, name: string, rule: LimitRule) {
  const r = await consume(name, rule, clientAddress(context));
  if (!r.ok) {
    throw new HttpError(429, tooManyMessage(r.retryAfterSeconds), { "Retry-After": String(r.retryAfterSeconds) });
  }
}

/** True when a bot filled the hidden field: the caller is told all went well. */
export const trippedHoneypot = (body: Record<string, unknown>) =>
  typeof body[HONEYPOT_FIELD] === "string" && (body[HONEYPOT_FIELD] as string).trim() !== "";
