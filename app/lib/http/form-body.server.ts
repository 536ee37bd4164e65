import { JSON_TOO_MANY } from "../core/bounded-json";
import { HttpError } from "../core/http-error";

/**
 * An application/x-www-form-urlencoded request body, decoded as it arrives, a piece at a time:
 * `new URLSearchParams(text)` of a whole body holds the event loop for everyone while it runs
 * (eight megabytes of `v=++++…` took seconds, and a million fields about one), and needs the
 * body whole as one string first. Here each piece the socket gives is split and decoded in one
 * linear pass over its bytes, the fields are counted as they come, and a body with too many is
 * refused at the piece that shows it; the rest is never read.
 *
 * Decoded exactly as URLSearchParams decodes: pairs split at '&' (empty ones skipped), name and
 * value at the first '=', '+' is a space, `%XX` a byte (a '%' not followed by two hex digits
 * stays as it is), the bytes read as UTF-8 (malformed sequences become U+FFFD).
 */

/** Fields in one form body: far more than any form of the site has. */
export const FORM_MAX_FIELDS = 1_000;

const AMP = 0x26;
const EQ = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;

const hexValue = (b: number) => (b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x41 && b <= 0x46 ? b - 0x37 : b >= 0x61 && b <= 0x66 ? b - 0x57 : -1);

export class FormTooManyFields extends Error {}

/** Decodes urlencoded bytes given in pieces (`feed`), into name/value pairs (`end`). */
export class UrlEncodedDecoder {
  private pairs: [string, string][] = [];
  private name: Buffer[] = [];
  private value: Buffer[] = [];
  private inValue = false;
  /** Bytes in the current pair so far (an empty pair is skipped). */
  private pairBytes = 0;
  /** A '%' (and perhaps one hex digit) at the end of the previous piece. */
  private pending: number[] = [];

  constructor(private readonly maxFields = FORM_MAX_FIELDS) {}

  /** Takes the next piece; throws FormTooManyFields once there are more than `maxFields` fields. */
  feed(bytes: Uint8Array) {
    // Each input byte gives at most one output byte, plus the two a pending '%X' may give back.
    const out = Buffer.allocUnsafe(bytes.length + 2);
    let w = 0;
    let start = 0;
    const target = () => (this.inValue ? this.value : this.name);
    const cut = () => {
      if (w > start) target().push(out.subarray(start, w));
      start = w;
    };
    const flushPending = () => {
      for (const b of this.pending) out[w++] = b;
      this.pending.length = 0;
    };
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (this.pending.length > 0) {
        if (hexValue(b) >= 0) {
          if (this.pending.length === 1) {
            this.pending.push(b);
            continue;
          }
          out[w++] = hexValue(this.pending[1]!) * 16 + hexValue(b);
          this.pending.length = 0;
          this.pairBytes += 1;
          continue;
        }
        flushPending();
      }
      if (b === AMP) {
        cut();
        this.endPair();
        continue;
      }
      this.pairBytes += 1;
      if (b === EQ && !this.inValue) {
        cut();
        this.inValue = true;
      } else if (b === PLUS) out[w++] = 0x20;
      else if (b === PERCENT) this.pending.push(b);
      else out[w++] = b;
    }
    cut();
  }

  /** The pairs, in order, once the whole body was fed. */
  end(): [string, string][] {
    if (this.pending.length > 0) {
      const rest = Buffer.from(this.pending);
      this.pending.length = 0;
      (this.inValue ? this.value : this.name).push(rest);
    }
    this.endPair();
    return this.pairs;
  }

  private endPair() {
    if (this.pending.length > 0) {
      (this.inValue ? this.value : this.name).push(Buffer.from(this.pending));
      this.pending.length = 0;
    }
    if (this.pairBytes > 0) {
      if (this.pairs.length >= this.maxFields) throw new FormTooManyFields();
      this.pairs.push([Buffer.concat(this.name).toString("utf8"), Buffer.concat(this.value).toString("utf8")]);
    }
    this.name = [];
    this.value = [];
    this.inValue = false;
    this.pairBytes = 0;
  }
}

/**
 * Reads an urlencoded body into its fields (the last of repeated names): 413 over `maxBytes`
 * (declared or sent), 400 with more than `maxFields` fields, each refused at once.
 */
export async function readUrlEncodedBody(request: Request, maxBytes: number, maxFields = FORM_MAX_FIELDS): Promise<Record<string, string>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new HttpError(413, "Request body is too large.");
  if (!request.body) return {};
  const reader = request.body.getReader();
  const decoder = new UrlEncodedDecoder(maxFields);
  let size = 0;
  const refuse = async (status: number, message: string) => {
    await reader.cancel().catch(() => {});
    return new HttpError(status, message);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) throw await refuse(413, "Request body is too large.");
    try {
      decoder.feed(value);
    } catch (e) {
      if (e instanceof FormTooManyFields) throw await refuse(400, JSON_TOO_MANY);
      throw e;
    }
  }
  try {
    return Object.fromEntries(decoder.end());
  } catch (e) {
    if (e instanceof FormTooManyFields) throw new HttpError(400, JSON_TOO_MANY);
    throw e;
  }
}
