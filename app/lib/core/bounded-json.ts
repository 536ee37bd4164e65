/**
 * JSON from strangers (request bodies, a badge file's record) is measured before it is parsed:
 * `JSON.parse` of `{"id":[[[[…` six megabytes deep holds the event loop for seconds, and every
 * other visitor waits. The measure is one linear pass, fed piece by piece as a body arrives, that
 * stops at the first level too deep or the first value too many, so a body refused for its shape
 * is refused after its first few bytes, and the rest is never read.
 */
export const JSON_MAX_DEPTH = 32;
/** Values (strings, separators, brackets) in one document: far more than any form or order has. */
export const JSON_MAX_VALUES = 200_000;
/**
 * Names in one object: far more than any record has. Tens of thousands of them in a small body
 * cost more to handle than their bytes say (each one becomes a form field, a property to look up).
 */
export const JSON_MAX_KEYS = 1_000;

export const JSON_TOO_DEEP = `Request body is nested too deeply (JSON may nest at most ${JSON_MAX_DEPTH} levels).`;
export const JSON_TOO_MANY = "Request body has too many values.";

export type JsonShapeProblem = "too-deep" | "too-many";

/**
 * Measures JSON text given in pieces (`feed`), by its brackets, separators and strings (escapes
 * understood, across pieces too) without parsing it. Malformed text is not judged here:
 * JSON.parse refuses it afterwards, cheaply.
 */
export class JsonShapeScanner {
  private depth = 0;
  private values = 0;
  private inString = false;
  /** The previous piece ended in the middle of an escape (a backslash). */
  private escaping = false;
  /** For each open bracket, the names seen in it so far (an object) or -1 (an array). */
  private keys: number[] = [];
  problem: JsonShapeProblem | null = null;

  constructor(
    private readonly maxDepth = JSON_MAX_DEPTH,
    private readonly maxValues = JSON_MAX_VALUES,
    private readonly maxKeys = JSON_MAX_KEYS,
  ) {}

  /** Takes the next piece of text; answers the problem found so far, if any. */
  feed(text: string): JsonShapeProblem | null {
    if (this.problem || text.length === 0) return this.problem;
    const len = text.length;
    const special = /["[\]{},:]/g;
    let i = 0;
    if (this.escaping) {
      this.escaping = false;
      i = 1;
    }
    for (;;) {
      if (this.inString) {
        // To the closing quote, over escapes (a backslash and the character after it). `len`
        // stands for 'none in this piece'.
        let quote = -1;
        let backslash = -1;
        for (;;) {
          if (quote < i) {
            const at = text.indexOf('"', i);
            quote = at < 0 ? len : at;
          }
          if (backslash < i) {
            const at = text.indexOf("\\", i);
            backslash = at < 0 ? len : at;
          }
          if (quote <= backslash) break;
          // An escape, and a run of them at once.
          i = backslash;
          while (i < len && text.charCodeAt(i) === 0x5c) i += 2;
          if (i > len) {
            // The piece ends inside an escape: the next piece starts with the escaped character.
            this.escaping = true;
            return null;
          }
        }
        if (quote >= len) return null;
        this.inString = false;
        i = quote + 1;
      }
      special.lastIndex = i;
      const m = special.exec(text);
      if (!m) return null;
      i = m.index + 1;
      if (++this.values > this.maxValues) return (this.problem = "too-many");
      const c = text.charCodeAt(m.index);
      if (c === 0x22) this.inString = true;
      else if (c === 0x5b || c === 0x7b) {
        if (++this.depth > this.maxDepth) return (this.problem = "too-deep");
        this.keys.push(c === 0x7b ? 0 : -1);
      } else if (c === 0x5d || c === 0x7d) {
        this.depth -= 1;
        this.keys.pop();
      } else if (c === 0x3a) {
        // A name's colon: counted in the object it belongs to.
        const at = this.keys.length - 1;
        if (at >= 0 && this.keys[at]! >= 0 && ++this.keys[at]! > this.maxKeys) return (this.problem = "too-many");
      }
    }
  }
}

/** Text measured in one go is fed in slices this long, with a break for other requests between. */
const SLICE_CHARS = 262_144;

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether `text` nests deeper than `maxDepth` or holds more than `maxValues` values. */
export async function jsonShapeProblem(
  text: string,
  { maxDepth = JSON_MAX_DEPTH, maxValues = JSON_MAX_VALUES }: { maxDepth?: number; maxValues?: number } = {},
): Promise<JsonShapeProblem | null> {
  const scanner = new JsonShapeScanner(maxDepth, maxValues);
  for (let at = 0; at < text.length; at += SLICE_CHARS) {
    if (at > 0) await yieldToOthers();
    const problem = scanner.feed(text.slice(at, at + SLICE_CHARS));
    if (problem) return problem;
  }
  return null;
}

export class JsonShapeError extends Error {
  constructor(public problem: JsonShapeProblem) {
    super(problem === "too-deep" ? JSON_TOO_DEEP : JSON_TOO_MANY);
  }
}

/**
 * JSON.parse, after `jsonShapeProblem`: throws JsonShapeError for text too deep or too wide,
 * and JSON.parse's SyntaxError for text that is not JSON.
 */
export async function parseBoundedJson(text: string, limits?: { maxDepth?: number; maxValues?: number }): Promise<unknown> {
  const problem = await jsonShapeProblem(text, limits);
  if (problem) throw new JsonShapeError(problem);
  return parseMeasured(text);
}

/** JSON.parse of text already measured: its own turn of the event loop when it is large. */
export async function parseMeasured(text: string): Promise<unknown> {
  if (text.length > SLICE_CHARS) await yieldToOthers();
  return JSON.parse(text) as unknown;
}
