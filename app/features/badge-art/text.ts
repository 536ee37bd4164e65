import { dayInWordsUtc } from "~/lib/core/plain-format";
/** Pure text helpers for the kit templates: safe names, initials, sizes that fit. */

export const MAX_NAME_LENGTH = 80;

/** Collapses whitespace, drops control characters and caps the length (by characters, not bytes). */
export function cleanText(value: string, max = MAX_NAME_LENGTH): string {
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

/** Width of a run of text in em. The kit measures its display font once (measure.server.ts). */
export type MeasureEm = (text: string) => number;

// A deliberately generous stand-in for tests and for characters the measured table lacks.
export const roughEm: MeasureEm = (text) => {
  let w = 0;
  for (const ch of text) {
    if (ch === " ") w += 0.27;
    else if (/[ilIjft.,'’!|:;]/.test(ch)) w += 0.36;
    else if (/[mwMW]/.test(ch)) w += 1.0;
    else if (/\p{Lu}/u.test(ch)) w += 0.8;
    else w += 0.66;
  }
  return w;
};

/**
 * Greedy wrap on measured widths: how many lines `text` needs at `fontSize` within `width`.
 * Lines may break at spaces and after hyphens, as satori's line breaker does.
 */
function linesNeeded(text: string, fontSize: number, width: number, em: MeasureEm): number {
  const space = em(" ") * fontSize;
  let lines = 1;
  let line = 0;
  for (const word of text.split(" ").filter(Boolean)) {
    const parts = word.split(/(?<=-)/);
    parts.forEach((part, i) => {
      const w = em(part) * fontSize;
      const gap = i === 0 && line > 0 ? space : 0;
      if (w > width) lines = Number.POSITIVE_INFINITY;
      else if (line === 0) line = w;
      else if (line + gap + w <= width) line += gap + w;
      else {
        lines += 1;
        line = w;
      }
    });
  }
  return lines;
}

export type FitStep = { maxLines: number; max: number; min: number };

/**
 * The largest font size (in steps of 2 px) at which `text` fits `width`, trying each step in
 * turn: e.g. up to 2 lines from 84 down to 46 px, then up to 3 lines from 44 down to 34 px.
 * Returns the size and the line budget; past the last step the template lets long words break
 * and clamps to that budget, so nothing can spill out of the frame.
 */
export function fitText(
  text: string,
  width: number,
  steps: FitStep[],
  em: MeasureEm = roughEm,
): { fontSize: number; maxLines: number } {
  // Keep a little slack: kerning and the clamp's ellipsis are not in the estimate.
  const usable = width * 0.96;
  for (const step of steps) {
    for (let size = step.max; size >= step.min; size -= 2) {
      if (linesNeeded(text, size, usable, em) <= step.maxLines) return { fontSize: size, maxLines: step.maxLines };
    }
  }
  const last = steps[steps.length - 1]!;
  return { fontSize: last.min, maxLines: last.maxLines };
}

/** '2025-03-12T…' -> '12 March 2025' (UTC); anything unparseable is shown as given. */
export function formatIssuedDate(value: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return cleanText(value, 40);
  return dayInWordsUtc(d);
}
