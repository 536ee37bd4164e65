/** Pure text helpers for the kit templates: safe names, initials, sizes that fit. */

export const MAX_NAME_LENGTH = 80;

/** Collapses whitespace, drops control characters and caps the length (by characters, not bytes). */
export function cleanText(value: string, max = MAX_NAME_LENGTH): string {
  // eslint-disable-next-line no-control-regex
  const flat = value.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e]/g, " ");
  const chars = Array.from(flat.replace(/\s+/g, " ").trim());
  return chars.length > max ? `${chars.slice(0, max - 1).join("").trimEnd()}…` : chars.join("");
}

/** Up to two initials, from the first and the last word: 'Wanjirũ Njoroge' -> 'WN'. */
export function initialsOf(name: string): string {
  const words = cleanText(name)
    .split(" ")
    .map((w) => w.replace(/^[^\p{L}\p{N}]+/u, ""))
    .filter(Boolean);
  if (words.length === 0) return "?";
  const first = Array.from(words[0]!)[0] ?? "";
  const last = words.length > 1 ? (Array.from(words[words.length - 1]!)[0] ?? "") : "";
  return (first + last).toLocaleUpperCase("en");
}

// Rough advance widths in em for a bold display face. Deliberately generous, so an estimate
// errs towards a smaller size; the template still wraps and clamps as a second guard.
function charEm(ch: string): number {
  if (ch === " ") return 0.27;
  if (/[ilI.,'’!|:;]/.test(ch)) return 0.32;
  if (/[mwMW]/.test(ch)) return 0.9;
  if (/\p{Lu}/u.test(ch)) return 0.72;
  if (/\p{N}/u.test(ch)) return 0.62;
  return 0.58;
}

export function textWidthEm(text: string): number {
  let w = 0;
  for (const ch of text) w += charEm(ch);
  return w;
}

/** Greedy word wrap on estimated widths: how many lines `text` needs at `fontSize` in `width`. */
function linesNeeded(words: string[], fontSize: number, width: number): number {
  const space = charEm(" ") * fontSize;
  let lines = 1;
  let line = 0;
  for (const word of words) {
    const w = textWidthEm(word) * fontSize;
    if (w > width) return Number.POSITIVE_INFINITY;
    if (line === 0) line = w;
    else if (line + space + w <= width) line += space + w;
    else {
      lines += 1;
      line = w;
    }
  }
  return lines;
}

/**
 * The largest font size (in steps of 2 px) at which `text` fits `width` within `maxLines`, but
 * never under `min`. At `min` the template lets long words break and clamps the line count.
 */
export function fitFontSize(
  text: string,
  opts: { width: number; maxLines: number; max: number; min: number },
): number {
  const words = text.split(" ").filter(Boolean);
  for (let size = opts.max; size > opts.min; size -= 2) {
    if (linesNeeded(words, size, opts.width) <= opts.maxLines) return size;
  }
  return opts.min;
}

/** '2025-03-12T…' -> '12 March 2025' (UTC); anything unparseable is shown as given. */
export function formatIssuedDate(value: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return cleanText(value, 40);
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(d);
}
