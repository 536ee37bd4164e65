/**
 * Reading the old site's files with the line each record starts on, so a refused record can be
 * named by its line: JSON files (pretty-printed arrays and maps) and JSON-lines logs.
 */

export type Located = { line: number; value: unknown };
/** A member of a JSON object, with the line its key is on. */
export type LocatedMember = { line: number; key: string; value: unknown };

export class LegacyFileError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * A small JSON reader that keeps the line of every value: enough to name the line of each
 * array element and object member. Values themselves come out as JSON.parse would give them.
 */
class Reader {
  pos = 0;
  line = 1;
  /** A top-level key whose object's members (with their lines) are wanted, and what they were. */
  capture: string | null = null;
  captured: LocatedMember[] | null = null;
  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new LegacyFileError(`not valid JSON: ${what}`, this.line);
  }

  space() {
    for (;;) {
      const c = this.text[this.pos];
      if (c === "\n") this.line++;
      if (c === " " || c === "\t" || c === "\r" || c === "\n" || c === "\uFEFF") this.pos++;
      else return;
    }
  }

  value(): unknown {
    this.space();
    const c = this.text[this.pos];
    if (c === "{") return this.object(1).value;
    if (c === "[") return this.array().map((e) => e.value);
    if (c === '"') return this.string();
    return this.literal();
  }

  string(): string {
    const start = this.pos;
    this.pos++;
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined) this.fail("a text never ends");
      if (c === "\n") this.fail("a line break inside a text");
      if (c === "\\") this.pos += 2;
      else if (c === '"') break;
      else this.pos++;
    }
    this.pos++;
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      return this.fail("a text with a bad escape");
    }
  }

  literal(): unknown {
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(this.pos, this.pos + 400));
    if (!m) this.fail(this.pos >= this.text.length ? "the file ends too early" : `unexpected '${this.text[this.pos]}'`);
    this.pos += m[0].length;
    return JSON.parse(m[0]);
  }

  array(): Located[] {
    this.pos++;
    const out: Located[] = [];
    this.space();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.space();
      const line = this.line;
      out.push({ line, value: this.value() });
      this.space();
      const c = this.text[this.pos++];
      if (c === "]") return out;
      if (c !== ",") this.fail(c === undefined ? "the file ends too early" : `expected ',' or ']' but found '${c}'`);
    }
  }

  object(depth: number): { value: Record<string, unknown>; members: LocatedMember[] } {
    this.pos++;
    const members: LocatedMember[] = [];
    const value: Record<string, unknown> = {};
    this.space();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return { value, members };
    }
    for (;;) {
      this.space();
      if (this.text[this.pos] !== '"') this.fail("expected a quoted key");
      const line = this.line;
      const key = this.string();
      this.space();
      if (this.text[this.pos++] !== ":") this.fail("expected ':'");
      let v: unknown;
      this.space();
      if (depth === 0 && key === this.capture && this.text[this.pos] === "{") {
        const inner = this.object(1);
        this.captured = inner.members;
        v = inner.value;
      } else if (depth === 0 && key === this.capture && this.text[this.pos] === "[") {
        const inner = this.array();
        this.captured = inner.map((e, i) => ({ line: e.line, key: String(i), value: e.value }));
        v = inner.map((e) => e.value);
      } else v = this.value();
      members.push({ line, key, value: v });
      Object.defineProperty(value, key, { value: v, enumerable: true, writable: true, configurable: true });
      this.space();
      const c = this.text[this.pos++];
      if (c === "}") return { value, members };
      if (c !== ",") this.fail(c === undefined ? "the file ends too early" : `expected ',' or '}' but found '${c}'`);
    }
  }

  end() {
    this.space();
    if (this.pos < this.text.length) this.fail("more after the end of the data");
  }
}

/** A JSON array file: each element with its line. A file that is not a JSON array throws. */
export function readJsonArray(text: string): Located[] {
  const r = new Reader(text);
  r.space();
  if (r.text[r.pos] !== "[") r.fail("the file should hold a list ([ ... ])");
  const items = r.array();
  r.end();
  return items;
}

/**
 * A JSON object file, or the object (or list) under one of its keys ({"polls": {...}},
 * {"items": [...]}): each member with its line. A missing `under` gives no members; a file that is not a JSON object throws.
 */
export function readJsonMembers(text: string, under?: string): LocatedMember[] {
  const r = new Reader(text);
  r.space();
  if (r.text[r.pos] !== "{") r.fail("the file should hold an object ({ ... })");
  r.capture = under ?? null;
  const top = r.object(0);
  r.end();
  return under ? (r.captured ?? []) : top.members;
}

/** A JSON-lines log: each non-blank line, parsed or with the reason it could not be. */
export function readJsonLines(text: string): ({ line: number; raw: string } & ({ value: unknown } | { error: string }))[] {
  const out: ({ line: number; raw: string } & ({ value: unknown } | { error: string }))[] = [];
  const lines = text.split("\n");
  for (const [i, raw] of lines.entries()) {
    const trimmed = raw.trim();
    if (trimmed === "") continue;
    try {
      out.push({ line: i + 1, raw: trimmed, value: JSON.parse(trimmed) as unknown });
    } catch (e) {
      out.push({ line: i + 1, raw: trimmed, error: `not valid JSON (${e instanceof Error ? e.message.replace(/\s+/g, " ").slice(0, 80) : "unreadable"})` });
    }
  }
  return out;
}

/** A plain object (not an array, not null), or null. */
export const asObject = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** A field as trimmed text ('' for absent, null, objects); numbers and booleans as written. */
export function text(v: unknown): string {
  if (typeof v === "string") return v.trim();
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return "";
}

/** PHP's (int) cast of the old site's amounts: the leading digits ('1300abc' is 1300). */
export function leadingInt(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return Math.trunc(v);
  const m = /^\s*(-?\d+)/.exec(text(v));
  return m ? Number(m[1]) : null;
}

/** PHP's (bool) cast: '', '0', 0, false, null are false; anything else ('no' too) is true. */
export const phpBool = (v: unknown) => !(v === "" || v === "0" || v === 0 || v === false || v === null || v === undefined);

/** A time the old site wrote (ISO 8601, or a date), as ISO UTC; null when it cannot be read. */
export function isoTime(v: unknown): string | null {
  const t = text(v);
  if (!t) return null;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}
