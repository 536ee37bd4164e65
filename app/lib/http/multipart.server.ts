import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { env } from "../server/env.server";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../server/files.server";
import { HttpError } from "./http.server";
import { FORM_UNREADABLE } from "../core/forms";

/**
 * The site's one reader of multipart/form-data bodies, read as they arrive and never held whole
 * in memory (`request.formData()` holds the whole body, and copies a large upload several times
 * over, before anyone looks at it). `multipartParts` walks the parts; on it are built the two
 * ways a form is read: `readStreamedForm` (every field, files written to private temporary
 * files) and `openUploadedFile` (one file's bytes as they come, for a form that carries one file
 * and nothing else the server needs).
 */

export const FORM_TOO_LARGE = "That form is too large to send.";

/** A file part of the form: on disk (`path`) while the request is handled, deleted after. */
export class UploadedFile extends File {
  constructor(
    parts: BlobPart[],
    name: string,
    type: string,
    /** The temporary file holding it; null when it was empty or over its cap (nothing kept). */
    readonly path: string | null,
    /** Every byte the browser sent for it, those dropped over the cap included. */
    readonly sentBytes: number,
    /** More than the cap arrived: nothing of it was kept. */
    readonly overLimit: boolean,
  ) {
    super(parts, name, { type });
  }
}

export type StreamedForm = {
  form: FormData;
  /** Deletes the temporary files. Call once the request is answered. */
  dispose: () => Promise<void>;
};

type Options = {
  /** Most bytes read in all; more is a 413 (FORM_TOO_LARGE). */
  maxBytes: number;
  /** Fields that may carry a file, with the most bytes kept of each. Files in other fields are dropped. */
  files: Record<string, number>;
  /** Most bytes of one text field. */
  maxFieldBytes?: number;
  /** Most parts in one form. */
  maxParts?: number;
};

const CRLF = Buffer.from("\r\n");
const HEADERS_END = Buffer.from("\r\n\r\n");
const MAX_HEADER_BYTES = 8 * 1024;

/** The boundary of a multipart/form-data Content-Type, or null. */
function boundaryOf(contentType: string): string | null {
  if (!/^\s*multipart\/form-data\s*;/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;,"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** `form-data; name="a"; filename="b"` -> { name, filename } (quoted-string escapes undone). */
function dispositionOf(value: string): { name: string | null; filename: string | null } {
  const param = (key: string) => {
    const re = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i");
    const m = re.exec(value);
    if (!m) return null;
    return m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? "");
  };
  return { name: param("name"), filename: param("filename") };
}

let swept = false;

/** The private folder temporary uploads go in; files left there by a crash are removed once a process starts using it. */
async function uploadsDir() {
  const dir = path.join(env().dataDir, "uploads");
  await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!swept) {
    swept = true;
    // Older than an hour: no request takes that long, so another process is not using it.
    const old = Date.now() - 3_600_000;
    for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
      const file = path.join(dir, name);
      const stat = await fsp.stat(file).catch(() => null);
      if (stat && stat.mtimeMs < old) await fsp.rm(file, { force: true });
    }
  }
  return dir;
}

/** One part of a multipart body, its content read as it arrives. */
export type MultipartPart = {
  name: string;
  /** The part's filename (a file input's part), or null for a text field. */
  filename: string | null;
  /** The part's Content-Type, as sent (at most 100 characters). */
  type: string;
  /**
   * The part's bytes, piece by piece. What is left unread when the next part is asked for is
   * skipped (read and not kept).
   */
  content: AsyncGenerator<Buffer, void, undefined>;
};

/** The body's bytes, with what is not yet used kept in `buf`; more than `maxBytes` in all is a 413. */
class BodyBytes {
  // The body as if it began with a line break, so the first boundary reads like the others.
  buf: Buffer = Buffer.from(CRLF);
  private ended = false;
  private total = 0;
  constructor(
    private reader: ReadableStreamDefaultReader<Uint8Array>,
    private maxBytes: number,
  ) {}

  /** Adds the body's next bytes to `buf`; false at its end. */
  async more(): Promise<boolean> {
    if (this.ended) return false;
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await this.reader.read();
    } catch {
      // The body was cut off or broke mid-way.
      throw new HttpError(400, FORM_UNREADABLE);
    }
    if (next.done) {
      this.ended = true;
      return false;
    }
    const value = next.value;
    this.total += value.byteLength;
    if (this.total > this.maxBytes) throw new HttpError(413, FORM_TOO_LARGE);
    const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    return true;
  }

  /** Stops reading: the rest of the body is never read. */
  async stop() {
    this.ended = true;
    await this.reader.cancel().catch(() => {});
  }
}

/**
 * The parts of a multipart/form-data request, in order, as they arrive. Throws HttpError 413
 * (more than `maxBytes` in all, or more than `maxParts` parts) or 400 (not a well-formed
 * multipart body, or one cut off), when the parts or a part's content are read. Leaving the
 * loop early stops reading the body.
 */
export async function* multipartParts(
  request: Request,
  opts: { maxBytes: number; maxParts?: number },
): AsyncGenerator<MultipartPart, void, undefined> {
  const boundary = boundaryOf(request.headers.get("content-type") ?? "");
  if (!boundary) throw new HttpError(400, FORM_UNREADABLE);
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > opts.maxBytes) throw new HttpError(413, FORM_TOO_LARGE);
  const reader = request.body?.getReader();
  if (!reader) throw new HttpError(400, FORM_UNREADABLE);
  const maxParts = opts.maxParts ?? 100;
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const body = new BodyBytes(reader, opts.maxBytes);

  /** Whether the current part's content has been read to its end. */
  let finished = true;
  /** A part's content: up to the next delimiter, a tail that may hold the start of one waiting for more. */
  async function* contentOf(): AsyncGenerator<Buffer, void, undefined> {
    while (!finished) {
      const at = body.buf.indexOf(delimiter);
      if (at >= 0) {
        const piece = body.buf.subarray(0, at);
        body.buf = body.buf.subarray(at + delimiter.length);
        finished = true;
        if (piece.length) yield piece;
        return;
      }
      const safe = body.buf.length - delimiter.length + 1;
      if (safe > 0) {
        const piece = body.buf.subarray(0, safe);
        body.buf = Buffer.from(body.buf.subarray(safe));
        yield piece;
      }
      if (!(await body.more())) throw new HttpError(400, FORM_UNREADABLE);
    }
  }

  try {
    // Anything before the first boundary (a preamble) is skipped.
    for (;;) {
      const at = body.buf.indexOf(delimiter);
      if (at >= 0) {
        body.buf = body.buf.subarray(at + delimiter.length);
        break;
      }
      body.buf = body.buf.subarray(Math.max(0, body.buf.length - delimiter.length + 1));
      if (!(await body.more())) throw new HttpError(400, FORM_UNREADABLE);
    }

    let parts = 0;
    for (;;) {
      // After a boundary: "--" ends the form, else (optional spaces and) a line break opens a part.
      while (body.buf.length < 2) if (!(await body.more())) throw new HttpError(400, FORM_UNREADABLE);
      if (body.buf[0] === 0x2d && body.buf[1] === 0x2d) break;
      let eol: number;
      while ((eol = body.buf.indexOf(CRLF)) < 0) {
        if (body.buf.length > 256 || !(await body.more())) throw new HttpError(400, FORM_UNREADABLE);
      }
      if (body.buf.subarray(0, eol).toString("latin1").trim() !== "") throw new HttpError(400, FORM_UNREADABLE);
      body.buf = body.buf.subarray(eol + 2);

      if (++parts > maxParts) throw new HttpError(413, FORM_TOO_LARGE);
      let headEnd: number;
      // A part with no headers at all starts with the blank line itself.
      if (body.buf.length >= 2 && body.buf[0] === 0x0d && body.buf[1] === 0x0a) headEnd = -2;
      else {
        while ((headEnd = body.buf.indexOf(HEADERS_END)) < 0) {
          if (body.buf.length > MAX_HEADER_BYTES || !(await body.more())) throw new HttpError(400, FORM_UNREADABLE);
        }
      }
      const headers = new Map<string, string>();
      if (headEnd >= 0) {
        for (const line of body.buf.subarray(0, headEnd).toString("utf8").split("\r\n")) {
          const colon = line.indexOf(":");
          if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
        }
      }
      body.buf = body.buf.subarray(headEnd + 4);
      const { name, filename } = dispositionOf(headers.get("content-disposition") ?? "");
      if (name === null) throw new HttpError(400, FORM_UNREADABLE);

      finished = false;
      yield {
        name,
        filename: filename === null ? null : filename.slice(0, 200),
        type: (headers.get("content-type") ?? "application/octet-stream").slice(0, 100),
        content: contentOf(),
      };
      // What the reader of the part left is skipped.
      for await (const _ of contentOf()) void _;
    }
    // Whatever follows the closing boundary (an epilogue) is read and ignored.
    while (await body.more()) body.buf = Buffer.alloc(0);
  } finally {
    await body.stop();
  }
}

type Sink = {
  write(chunk: Buffer): Promise<void>;
  end(): Promise<void>;
};

/**
 * Reads a whole multipart/form-data request as it streams in: text fields are kept (each
 * capped), an allowed file is written to a private temporary file up to its own cap, and the
 * bytes of a file over that cap are counted and dropped, so the form's other fields (sent after
 * the file) still arrive and the visitor can be told the file's real size. Throws HttpError 413
 * (over `maxBytes` or too many parts or a text field over its cap) or 400 (not a well-formed
 * multipart body); temporary files are removed when it throws.
 */
export async function readStreamedForm(request: Request, opts: Options): Promise<StreamedForm> {
  const maxFieldBytes = opts.maxFieldBytes ?? 64 * 1024;
  const form = new FormData();
  const temporary: string[] = [];
  const open = new Set<fsp.FileHandle>();
  const dispose = async () => {
    await Promise.all([...open].map((h) => h.close().catch(() => {})));
    open.clear();
    await Promise.all(temporary.map((f) => fsp.rm(f, { force: true })));
  };

  /** A part's body goes to one of these. */
  const textSink = (name: string): Sink => {
    const chunks: Buffer[] = [];
    let size = 0;
    return {
      async write(chunk) {
        size += chunk.length;
        if (size > maxFieldBytes) throw new HttpError(413, FORM_TOO_LARGE);
        chunks.push(Buffer.from(chunk));
      },
      async end() {
        form.append(name, Buffer.concat(chunks).toString("utf8"));
      },
    };
  };
  const fileSink = async (name: string, filename: string, type: string, cap: number): Promise<Sink> => {
    const file = path.join(await uploadsDir(), `${process.pid}-${crypto.randomBytes(9).toString("hex")}`);
    temporary.push(file);
    const handle = await fsp.open(file, "w", PRIVATE_FILE_MODE);
    open.add(handle);
    let bytes = 0;
    const close = async () => {
      if (!open.delete(handle)) return;
      await handle.close();
    };
    return {
      async write(chunk) {
        bytes += chunk.length;
        if (bytes > cap) {
          // Over the cap: nothing of it is kept, the rest is only counted.
          if (open.has(handle)) {
            await close();
            await fsp.rm(file, { force: true });
          }
          return;
        }
        await handle.write(chunk);
      },
      async end() {
        const kept = bytes > 0 && bytes <= cap;
        await close();
        if (!kept) await fsp.rm(file, { force: true });
        const parts = kept ? [await fs.openAsBlob(file, { type })] : [];
        form.append(name, new UploadedFile(parts, filename, type, kept ? file : null, bytes, bytes > cap));
      },
    };
  };
  const dropSink: Sink = { write: async () => {}, end: async () => {} };

  try {
    for await (const part of multipartParts(request, { maxBytes: opts.maxBytes, maxParts: opts.maxParts })) {
      const cap = part.filename !== null ? opts.files[part.name] : undefined;
      const sink = part.filename === null ? textSink(part.name) : cap !== undefined ? await fileSink(part.name, part.filename, part.type, cap) : dropSink;
      for await (const piece of part.content) await sink.write(piece);
      await sink.end();
    }
    return { form, dispose };
  } catch (e) {
    await dispose();
    if (e instanceof HttpError) throw e;
    throw new HttpError(400, FORM_UNREADABLE);
  }
}

/** One file of a multipart form, its bytes read as they arrive. */
export type UploadStream = {
  filename: string;
  type: string;
  /** The file's bytes, piece by piece; stop iterating to stop reading the body. */
  pieces: AsyncGenerator<Buffer, void, undefined>;
};

/**
 * The file sent in form field `field`, its bytes as they come: whoever reads them keeps what it
 * needs and may stop early, and the rest of the body is then never read (the connection closes
 * after the answer). Null when the body is not a multipart form or has no file in that field.
 * Throws HttpError 413 (more than `maxBytes` in all) or 400 (a multipart body that cannot be
 * read), now or while the pieces are read.
 */
export async function openUploadedFile(request: Request, field: string, maxBytes: number): Promise<UploadStream | null> {
  if (!/^\s*multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) return null;
  const parts = multipartParts(request, { maxBytes });
  // Walked by hand: leaving a for-await loop would stop reading the body before the file is read.
  for (;;) {
    const next = await parts.next();
    if (next.done) return null;
    const part = next.value;
    if (part.name !== field || part.filename === null) continue;
    async function* pieces() {
      try {
        yield* part.content;
      } finally {
        // Done with the file (read through or left early): the rest of the body is not read.
        await parts.return();
      }
    }
    return { filename: part.filename, type: part.type, pieces: pieces() };
  }
}
