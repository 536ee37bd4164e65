import { HttpError } from "./http.server";
import { FORM_UNREADABLE } from "./submission.server";

/**
 * One file from a multipart form, read as it arrives. `request.formData()` holds the whole body
 * and copies a 6 MB upload four times over (chunks, body, Blob, ArrayBuffer) before anyone looks
 * at it; here the reader of the file sees each piece as it comes, keeps what it needs, and may
 * stop early: the rest of the body is then never read (the connection closes after the answer).
 * For forms that carry one file and nothing else the server needs (the badge verification upload).
 */
export type UploadedFile = {
  filename: string;
  type: string;
  /** The file's bytes, piece by piece; stop iterating to stop reading the body. */
  pieces: AsyncGenerator<Buffer, void, undefined>;
};

/** Part headers longer than this are no browser's. */
const MAX_HEADERS = 16 * 1024;

function boundaryOf(contentType: string): string | null {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

/** The body's bytes, with what is not yet used kept in `held`, refusing more than `maxBytes` (413). */
class BodySource {
  held: Buffer = Buffer.alloc(0);
  done = false;
  private size = 0;
  constructor(
    private reader: ReadableStreamDefaultReader<Uint8Array>,
    private maxBytes: number,
  ) {}

  /** Adds the next piece to `held`; false at the end of the body. */
  async more(): Promise<boolean> {
    if (this.done) return false;
    const { done, value } = await this.reader.read();
    if (done) {
      this.done = true;
      return false;
    }
    this.size += value.byteLength;
    if (this.size > this.maxBytes) {
      await this.stop();
      throw new HttpError(413, "Request body is too large.");
    }
    this.held = this.held.length ? Buffer.concat([this.held, value]) : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return true;
  }

  /** Waits until `held` contains `needle`; its index, or -1 at the end of the body. */
  async find(needle: Buffer, limit = Infinity): Promise<number> {
    for (;;) {
      const at = this.held.indexOf(needle);
      if (at >= 0) return at;
      if (this.held.length > limit) throw new HttpError(400, FORM_UNREADABLE);
      if (!(await this.more())) return -1;
    }
  }

  async stop() {
    this.done = true;
    await this.reader.cancel().catch(() => {});
  }
}

/**
 * The file sent in form field `field`: its name and type once its part's headers have arrived,
 * and its bytes as they come. Null when the body is not a multipart form or has no file in that
 * field. Throws HttpError 413 (more than `maxBytes` in all) or 400 (a multipart body that cannot
 * be read), now or while the pieces are read.
 */
export async function openUploadedFile(request: Request, field: string, maxBytes: number): Promise<UploadedFile | null> {
  const type = request.headers.get("content-type") ?? "";
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new HttpError(413, "Request body is too large.");
  if (!/^\s*multipart\/form-data/i.test(type)) return null;
  const boundary = boundaryOf(type);
  if (!boundary || !request.body) throw new HttpError(400, FORM_UNREADABLE);
  const source = new BodySource(request.body.getReader(), maxBytes);
  const first = Buffer.from(`--${boundary}`, "latin1");
  const delimiter = Buffer.from(`\r\n--${boundary}`, "latin1");
  const endOfHeaders = Buffer.from("\r\n\r\n", "latin1");

  let at = await source.find(first, MAX_HEADERS);
  if (at < 0) throw new HttpError(400, FORM_UNREADABLE);
  source.held = source.held.subarray(at + first.length);
  for (;;) {
    // After a delimiter: "--" ends the body, else a part's headers.
    while (source.held.length < 2 && (await source.more()));
    if (source.held[0] === 0x2d && source.held[1] === 0x2d) {
      await source.stop();
      return null;
    }
    at = await source.find(endOfHeaders, MAX_HEADERS);
    if (at < 0) throw new HttpError(400, FORM_UNREADABLE);
    const headers = source.held.toString("utf8", 0, at);
    source.held = source.held.subarray(at + endOfHeaders.length);
    const disposition = /^(?:\r\n)?content-disposition:\s*form-data(.*)$/im.exec(headers)?.[1] ?? "";
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1];
    if (name === field && filename !== undefined) {
      return { filename, type: /^content-type:\s*([^\r\n;]+)/im.exec(headers)?.[1]?.trim() ?? "application/octet-stream", pieces: contentOf(source, delimiter) };
    }
    // Another field: skipped to the next delimiter.
    for await (const _ of contentOf(source, delimiter, false)) {
      // Nothing of it is kept.
    }
  }
}

/**
 * A part's content up to the next delimiter, as it arrives. The last `delimiter.length - 1`
 * bytes are held back until it is known they are not the start of the delimiter.
 */
async function* contentOf(source: BodySource, delimiter: Buffer, stopWhenLeft = true): AsyncGenerator<Buffer, void, undefined> {
  let finished = false;
  try {
    for (;;) {
      const at = source.held.indexOf(delimiter);
      if (at >= 0) {
        const piece = source.held.subarray(0, at);
        source.held = source.held.subarray(at + delimiter.length);
        finished = true;
        if (piece.length) yield piece;
        return;
      }
      const safe = source.held.length - (delimiter.length - 1);
      if (safe > 0) {
        const piece = source.held.subarray(0, safe);
        source.held = Buffer.from(source.held.subarray(safe));
        yield piece;
      }
      if (!(await source.more())) throw new HttpError(400, FORM_UNREADABLE);
    }
  } finally {
    // The reader stopped before the end of the file: the rest of the body is not read.
    if (!finished && stopWhenLeft) await source.stop();
  }
}
