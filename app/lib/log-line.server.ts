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

let installed = false;

/** Every console.log/info/debug (stdout) and warn/error (stderr) of this process, one line each. */
export function keepLogLinesWhole() {
  if (installed) return;
  installed = true;
  const to = (stream: NodeJS.WriteStream) => (...args: unknown[]) => void stream.write(`${logLine(...args)}\n`);
  console.log = console.info = console.debug = to(process.stdout);
  console.warn = console.error = to(process.stderr);
}
