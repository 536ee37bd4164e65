import type { AppLoadContext } from "react-router";
import { httpErrorOf, jsonError } from "./http.server";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Args = { request: Request; url: URL; context: AppLoadContext };
type Handler = (args: Args) => Promise<Response>;

/**
 * The legacy /api/*.php endpoints: one handler per method, and every answer JSON, errors
 * too, with a real status code; never an HTML error page.
 */
export function jsonApi(handlers: Partial<Record<Method, Handler>>) {
  const allow = Object.keys(handlers).join(", ");
  const run = answeringEveryRequest(async (args: Args): Promise<Response> => {
    const raw = args.request.method.toUpperCase();
    const method = (raw === "HEAD" ? "GET" : raw) as Method;
    const handler = handlers[method];
    if (!handler) return jsonError(405, `Method ${raw} is not allowed here. Use ${allow}.`, { Allow: allow });
    return handler(args);
  });
  return { loader: run, action: run };
}

/**
 * `handler`, made to answer every request with a Response and never throw (an HttpError is
 * answered with its status and sentence, anything else is logged and answered 500, in JSON).
 * jsonApi's handlers are made so; a route of its own shape (the M-Pesa callbacks) uses it as its
 * loader or action.
 */
export function answeringEveryRequest<A extends { request: Request }>(handler: (args: A) => Promise<Response>): (args: A) => Promise<Response> {
  const run = async (args: A): Promise<Response> => {
    try {
      return await handler(args);
    } catch (e) {
      const http = httpErrorOf(e);
      if (http) return jsonError(http.status, http.message, http.headers);
      if (e instanceof Response) return e;
      console.error(`[api] ${args.request.method} ${new URL(args.request.url).pathname} failed`, e);
      return jsonError(500, "Server error. Please try again later.");
    }
  };
  return run;
}
