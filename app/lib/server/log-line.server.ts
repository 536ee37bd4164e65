import { formatWithOptions } from "node:util";

/**
 * One log entry, one line: control characters (line breaks above all) in anything logged, a
 * name typed into a form or a callback's raw body, are written as escapes, so nobody can forge
 * a separate entry in the server log. Stack traces come out on one line too ("\n" between frames).
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

export const escapeLogText = (text: string) =>
  text.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** What console.log would print for these arguments, as one line. */
export const logLine = (...args: unknown[]) => escapeLogText(formatWithOptions({ colors: false }, ...args));

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, string | number | boolean | null | Record<string, unknown>>;

/** The "[area]" a line starts with, by the project's habit ("[http] serving …"). */
const AREA = /^\[([A-Za-z0-9_.-]{1,32})\]\s?/;

/**
 * One entry as written: LOG_FORMAT=json, one JSON object a line (time, level, area, message,
 * fields; JSON escapes line breaks, so it stays one line); else text, the level first.
 */
export function formatEntry(format: "json" | "text", level: LogLevel, args: unknown[], fields: LogFields = {}, now = new Date()): string {
  return hideSecrets(entryText(format, level, args, fields, now));
}

let secrets: string[] = [];

/** Values no log line may show (the callback secret, the metrics token, an ADMIN_KEY): written [secret]. */
export function setLogSecrets(values: (string | undefined)[]) {
  secrets = values.filter((v): v is string => !!v && v.length >= 8);
}

// An email address, plain or percent-encoded in a path ('jane%40example.org'), as a log line may quote a URL or an error.
const ADDRESS = /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/gi;

/** Log text with every secret written [secret] and every email address [address]. */
export function hideSecrets(text: string): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join("[secret]");
  return out.replace(ADDRESS, "[address]");
}

function entryText(format: "json" | "text", level: LogLevel, args: unknown[], fields: LogFields, now: Date): string {
  const errors = args.filter((a): a is Error => a instanceof Error);
  if (format === "text") return `${level.toUpperCase()} ${logLine(...args)}`;
  const rest = args.filter((a) => !(a instanceof Error));
  let message = rest.length ? formatWithOptions({ colors: false }, ...rest) : "";
  const area = AREA.exec(message)?.[1] ?? "";
  if (area) message = message.replace(AREA, "");
  if (errors.length) message = message || errors[0]!.message;
  const all: LogFields = { ...fields };
  if (errors[0]) all.error = { name: errors[0].name, message: errors[0].message, stack: errors[0].stack ?? "" };
  return JSON.stringify({ time: now.toISOString(), level, area, message, fields: all }).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

let installed = false;
let format: "json" | "text" = "text";

/** A structured entry (the access log): with LOG_FORMAT=json its fields are JSON fields. */
export function logEntry(level: LogLevel, area: string, message: string, fields: LogFields = {}) {
  const stream = level === "warn" || level === "error" ? process.stderr : process.stdout;
  stream.write(`${formatEntry(format, level, [`[${area}] ${message}`], fields)}\n`);
}

/** Every console.log/info/debug (stdout) and warn/error (stderr) of this process, one line each, with its level. */
export function keepLogLinesWhole() {
  if (installed) return;
  installed = true;
  format = process.env.LOG_FORMAT?.trim().toLowerCase() === "json" ? "json" : "text";
  const to = (stream: NodeJS.WriteStream, level: LogLevel) => (...args: unknown[]) => void stream.write(`${formatEntry(format, level, args)}\n`);
  console.log = console.info = to(process.stdout, "info");
  console.debug = to(process.stdout, "debug");
  console.warn = to(process.stderr, "warn");
  console.error = to(process.stderr, "error");
}
