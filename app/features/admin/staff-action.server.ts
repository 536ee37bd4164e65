import { parseWithZod } from "@conform-to/zod/v4";
import { data, type AppLoadContext } from "react-router";
import type { z } from "zod";
import { staff, type Actor } from "~/lib/actor";
import type { Db } from "~/lib/db.server";
import type { Reply } from "~/lib/forms";
import { clientAddress, HttpError, httpErrorOf, onRefusal } from "~/lib/http.server";
import { readForm, submissionOf, type Submission } from "~/lib/submission.server";
import { isAdminSession, requireAdminSession, requireSameSiteForm } from "./staff-auth.server";

/** What a staff action answers: a Reply (its sentence in `message`) with its status. */
export type StaffAnswer<R> = ReturnType<typeof data<Reply<R>>>;

/** What every form of a staff screen is given besides its input. */
export type StaffContext = {
  submission: Submission;
  /** What the schemas read: the form's text fields, unless the screen reads them its own way. */
  fields: Record<string, unknown>;
  intent: string;
  db: Db;
  actor: Actor;
};

type Answers<R, I> = {
  /** Input the schema refuses (default: 400 with the first problem as the message). */
  invalid?: (problem: { message: string | undefined; fieldErrors: Record<string, string[]> }, ctx: StaffContext) => StaffAnswer<R>;
  /** A DomainError or HttpError from `run`: its reply (sent with its status), or null to count it a failure. */
  refused?: (e: HttpError, ctx: StaffContext, input: I) => Reply<R> | null | Promise<Reply<R> | null>;
  /** Anything else: logged, and answered with a 500 (without it the error is thrown on). */
  failed?: (error: unknown, ctx: StaffContext, input: I) => Reply<R> | Promise<Reply<R>>;
};

/** One form of a staff screen: the schema its fields are read with, and what it does. */
export type StaffIntent<R, S extends z.ZodType = z.ZodType> = Answers<R, z.output<S>> & {
  /** No schema: `run` reads the submission itself (an uploaded file, say). */
  schema?: S;
  /** Read with Conform, as a browser sent the form (empty inputs absent). */
  conform?: boolean;
  run: (input: z.output<S>, ctx: StaffContext) => Promise<StaffAnswer<R>>;
};

/** Types one form of a staff screen (its input from its schema). */
export const staffIntent = <R, S extends z.ZodType = z.ZodType>(form: StaffIntent<R, S>) => form;

type StaffActionOptions<R> = Answers<R, any> & {
  /** For the log: which screen failed. */
  name: string;
  /**
   * Signed out: back to sign-in, then to `returnTo` (thrown through); or the screen's own
   * `signedOut` answer; or "none" for the session forms themselves (sign in, sign out).
   * From another site's page, or a request that does not say where it came from: a 403.
   */
  session: { returnTo: string } | { signedOut: () => StaffAnswer<R> } | "none";
  /** Largest body accepted (default 32 KB; screens that take uploads set more). */
  maxBytes?: number;
  /** A body the page already read (a staff form on a public page). */
  submission?: Submission;
  /** The screen's forms, by intent. */
  intents: Record<string, StaffIntent<R, any>>;
  /** The form that answers any other intent (a screen with one form that sends none). */
  otherwise?: string;
  /** A body too large or unreadable (default: an error page with its status and message). */
  unreadable?: (message: string) => Reply<R>;
  /** An intent the screen does not have (default: 'Unknown action.'), with a 400. */
  unknown?: (ctx: StaffContext) => Reply<R>;
  /** What the schemas read, when the screen reads its fields its own way. */
  fieldsOf?: (submission: Submission) => Record<string, unknown>;
};

const firstProblem = (fieldErrors: Record<string, string[]>) => Object.values(fieldErrors).find((v) => v && v.length > 0)?.[0];

/**
 * The one road for staff forms: the staff session, the body read once, the form its intent
 * names, its schema, then its `run`. A refusal from the domain (DomainError, HttpError) is
 * worded by the screen with its status; anything else is logged and answered as the screen
 * says, or thrown on.
 */
export async function staffAction<R>(request: Request, context: AppLoadContext, opts: StaffActionOptions<R>): Promise<StaffAnswer<R>> {
  if (opts.session === "none") requireSameSiteForm(request);
  else if ("returnTo" in opts.session) await requireAdminSession(context.db, request, opts.session.returnTo);
  else {
    requireSameSiteForm(request);
    if (!(await isAdminSession(context.db, request))) return opts.session.signedOut();
  }
  const read = await onRefusal(
    async () => opts.submission ?? submissionOf(await readForm(request, opts.maxBytes)),
    (http) => {
      if (!opts.unreadable) throw data(http.message, { status: http.status, headers: http.headers });
      return data(opts.unreadable(http.message), http.status);
    },
  );
  if (!("fields" in read)) return read;
  const submission: Submission = read;
  const sent = submission.fields.intent;
  const intent = typeof sent === "string" ? sent : "";
  const ctx: StaffContext = {
    submission,
    fields: opts.fieldsOf ? opts.fieldsOf(submission) : submission.fields,
    intent,
    db: context.db,
    actor: staff(clientAddress(context)),
  };
  const name = Object.hasOwn(opts.intents, intent) ? intent : opts.otherwise;
  const form = name === undefined ? undefined : opts.intents[name];
  if (!form) {
    return data<Reply<R>>(opts.unknown ? opts.unknown(ctx) : { status: "error", message: "Unknown action." }, 400);
  }
  let input: unknown;
  if (form.schema) {
    const parsed = form.conform && submission.form ? parseWithZod(submission.form, { schema: form.schema }) : null;
    const fieldErrors: Record<string, string[]> = {};
    let ok: boolean;
    if (parsed) {
      ok = parsed.status === "success";
      if (parsed.status === "success") input = parsed.value;
      else for (const [k, v] of Object.entries(parsed.error ?? {})) if (v) fieldErrors[k] = v;
    } else {
      const result = form.schema.safeParse(ctx.fields);
      ok = result.success;
      if (result.success) input = result.data;
      else for (const issue of result.error.issues) (fieldErrors[issue.path.join(".")] ??= []).push(issue.message);
    }
    if (!ok) {
      const problem = { message: firstProblem(fieldErrors), fieldErrors };
      const invalid = form.invalid ?? opts.invalid;
      return invalid ? invalid(problem, ctx) : data<Reply<R>>({ status: "error", message: problem.message ?? "Invalid request." }, 400);
    }
  }
  try {
    return await form.run(input, ctx);
  } catch (e) {
    const http = httpErrorOf(e);
    const refused = form.refused ?? opts.refused;
    const reply = http ? (refused ? await refused(http, ctx, input) : { status: "error" as const, message: http.message }) : null;
    if (http && reply) return data(reply, http.status);
    const failed = form.failed ?? opts.failed;
    if (!failed) throw e;
    console.error(`[${opts.name}] ${intent || name} failed`, e);
    return data(await failed(e, ctx, input), 500);
  }
}
