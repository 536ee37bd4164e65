import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { env } from "./env.server";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./files.server";
import { HttpError } from "./http.server";
import { FORM_UNREADABLE } from "./submission.server";

/**
 * A multipart/form-data body read as it arrives, never held whole in memory: text fields are
 * kept (each capped), an allowed file is written to a private temporary file up to its own cap,
 * and the bytes of a file over that cap are counted and dropped, so the form's other fields
 * (sent after the file) still arrive and the visitor can be told the file's real size.
 * `request.formData()` would hold the whole body in memory first.
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
export function boundaryOf(contentType: string): string | null {
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

type Sink = {
  write(chunk: Buffer): Promise<void>;
  end(): Promise<void>;
};

/**
 * Reads a multipart/form-data request as it streams in. Throws HttpError 413 (over `maxBytes`
 * or too many parts or a text field over its cap) or 400 (not a well-formed multipart body);
 * temporary files are removed when it throws.
 */
export async function readStreamedForm(request: Request, opts: Options): Promise<StreamedForm> {
  const boundary = boundaryOf(request.headers.get("content-type") ?? "");
  if (!boundary) throw new HttpError(400, FORM_UNREADABLE);
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > opts.maxBytes) throw new HttpError(413, FORM_TOO_LARGE);
  const maxFieldBytes = opts.maxFieldBytes ?? 64 * 1024;
  const maxParts = opts.maxParts ?? 100;
  const delimiter = Buffer.from(`\r\n--${boundary}`);

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
        chunks.push(chunk);
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

  const reader = request.body?.getReader();
  if (!reader) throw new HttpError(400, FORM_UNREADABLE);
  let total = 0;
  /** The next bytes of the body, or null at its end. */
  const next = async (): Promise<Buffer | null> => {
    const { done, value } = await reader.read();
    if (done) return null;
    total += value.byteLength;
    if (total > opts.maxBytes) throw new HttpError(413, FORM_TOO_LARGE);
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  };

  try {
    // The body as if it began with a line break, so the first boundary reads like the others.
    let buf: Buffer = Buffer.from(CRLF);
    let ended = false;
    const more = async () => {
      if (ended) return false;
      const chunk = await next();
      if (!chunk) {
        ended = true;
        return false;
      }
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      return true;
    };

    // Anything before the first boundary (a preamble) is skipped.
    for (;;) {
      const at = buf.indexOf(delimiter);
      if (at >= 0) {
        buf = buf.subarray(at + delimiter.length);
        break;
      }
      buf = buf.subarray(Math.max(0, buf.length - delimiter.length + 1));
      if (!(await more())) throw new HttpError(400, FORM_UNREADABLE);
    }

    let parts = 0;
    for (;;) {
      // After a boundary: "--" ends the form, else (optional spaces and) a line break opens a part.
      while (buf.length < 2) if (!(await more())) throw new HttpError(400, FORM_UNREADABLE);
      if (buf[0] === 0x2d && buf[1] === 0x2d) break;
      let eol: number;
      while ((eol = buf.indexOf(CRLF)) < 0) {
        if (buf.length > 256 || !(await more())) throw new HttpError(400, FORM_UNREADABLE);
      }
      if (buf.subarray(0, eol).toString("latin1").trim() !== "") throw new HttpError(400, FORM_UNREADABLE);
      buf = buf.subarray(eol + 2);

      if (++parts > maxParts) throw new HttpError(413, FORM_TOO_LARGE);
      let headEnd: number;
      // A part with no headers at all starts with the blank line itself.
      if (buf.length >= 2 && buf[0] === 0x0d && buf[1] === 0x0a) headEnd = -2;
      else {
        while ((headEnd = buf.indexOf(HEADERS_END)) < 0) {
          if (buf.length > MAX_HEADER_BYTES || !(await more())) throw new HttpError(400, FORM_UNREADABLE);
        }
      }
      const headers = new Map<string, string>();
      if (headEnd >= 0) {
        for (const line of buf.subarray(0, headEnd).toString("utf8").split("\r\n")) {
          const colon = line.indexOf(":");
          if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
        }
      }
      buf = buf.subarray(headEnd + 4);
      const { name, filename } = dispositionOf(headers.get("content-disposition") ?? "");
      if (name === null) throw new HttpError(400, FORM_UNREADABLE);
      const cap = filename !== null ? opts.files[name] : undefined;
      const sink =
        filename === null
          ? textSink(name)
          : cap !== undefined
            ? await fileSink(name, filename.slice(0, 200), (headers.get("content-type") ?? "application/octet-stream").slice(0, 100), cap)
            : dropSink;

      // The part's body runs to the next boundary; a tail that may hold the start of one waits for more.
      for (;;) {
        const at = buf.indexOf(delimiter);
        if (at >= 0) {
          if (at > 0) await sink.write(buf.subarray(0, at));
          buf = buf.subarray(at + delimiter.length);
          break;
        }
        const safe = buf.length - delimiter.length + 1;
        if (safe > 0) {
          await sink.write(Buffer.from(buf.subarray(0, safe)));
          buf = buf.subarray(safe);
        }
        if (!(await more())) throw new HttpError(400, FORM_UNREADABLE);
      }
      await sink.end();
    }
    // Whatever follows the closing boundary (an epilogue) is read and ignored.
    while (await more()) buf = Buffer.alloc(0);
    return { form, dispose };
  } catch (e) {
    await reader.cancel().catch(() => {});
    await dispose();
    if (e instanceof HttpError) throw e;
    // The body was cut off or broke mid-way.
    throw new HttpError(400, FORM_UNREADABLE);
  }
}
