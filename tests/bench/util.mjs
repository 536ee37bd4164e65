// Small helpers shared by the measurement commands.
import { parseArgs } from "node:util";

/**
 * A measurement command's options (`--help` added): `read(values)` checks them and returns what
 * the command derives from them. A bad value is printed with the usage (exit 2); `--help` prints
 * the usage (exit 0).
 */
export function commandArgs(usage, options, read) {
  let parsed;
  try {
    const { values } = parseArgs({ options: { ...options, help: { type: "boolean", default: false } } });
    parsed = { args: values, ...read(values) };
  } catch (e) {
    console.error(`${e instanceof Error ? e.message : e}\n${usage}`);
    process.exit(2);
  }
  if (parsed.args.help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}

/** Prints rows as an aligned plain-text table; numbers are right-aligned. */
export function printTable(headers, rows) {
  const cells = [headers, ...rows].map((r) => r.map((c) => (c === undefined || c === null ? "" : String(c))));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === "number" || /^[\d.,-]+( ?[a-z%]+)?$/i.test(String(r[i] ?? ""))));
  const line = (r) =>
    "| " + r.map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(" | ") + " |";
  console.log(line(cells[0]));
  console.log("|" + widths.map((w, i) => (numeric[i] ? "-".repeat(w + 1) + ":" : "-".repeat(w + 2))).join("|") + "|");
  for (const r of cells.slice(1)) console.log(line(r));
}

/** Bytes as kB (1 kB = 1000 bytes, as Vite prints them). */
export const kB = (bytes) => (bytes / 1000).toFixed(1);

/** "/a,/b" -> ["/a", "/b"]; each page must start with "/". */
export function parsePageList(value) {
  const pages = value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of pages) if (!p.startsWith("/")) throw new Error(`--pages: "${p}" must start with /`);
  return pages;
}

export function positiveInt(name, value) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number >= 1 (got "${value}")`);
  return n;
}
