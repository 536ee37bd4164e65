import zlib from "node:zlib";
import { BAKE_KEYWORD, NotAPngError } from "../badge-art/bake.server";

/**
 * `readBakedPng` for an upload as it arrives: the file is checked chunk by chunk (signature,
 * lengths, checksums, IHDR first and IEND last) without ever being held whole; only the first
 * `openbadges` record is kept, and only if it is no longer than a record can be: a longer one is
 * refused the moment its chunk's header arrives, and the rest of the upload is never read.
 */
export class EmptyUploadError extends Error {}
export class UploadTooLargeError extends Error {}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** An iTXt keyword is at most 79 bytes and its NUL: enough to tell an `openbadges` chunk. */
const KEYWORD_PEEK = 80;

type Options = { maxBytes: number; maxTextBytes: number; tooLarge: string };

export async function readBakedUpload(pieces: AsyncIterable<Uint8Array>, { maxBytes, maxTextBytes, tooLarge }: Options): Promise<string | null> {
  const source = pieces[Symbol.asyncIterator]();
  let held: Buffer = Buffer.alloc(0);
  let total = 0;
  let ended = false;
  /** Until `held` has `n` bytes; false when the upload ends first. */
  const fill = async (n: number) => {
    while (held.length < n) {
      if (ended) return false;
      const next = await source.next();
      if (next.done) {
        ended = true;
        return false;
      }
      total += next.value.byteLength;
      if (total > maxBytes) throw new UploadTooLargeError();
      const piece = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      held = held.length ? Buffer.concat([held, piece]) : piece;
    }
    return true;
  };
  const take = (n: number) => {
    const out = held.subarray(0, n);
    held = held.subarray(n);
    return out;
  };
  const cutShort = () => new NotAPngError("That PNG file is cut short.");

  try {
    if (!(await fill(SIGNATURE.length))) {
      if (total === 0) throw new EmptyUploadError();
      throw new NotAPngError("That file is not a PNG image.");
    }
    if (!take(SIGNATURE.length).equals(SIGNATURE)) throw new NotAPngError("That file is not a PNG image.");
    let first: string | undefined;
    let last: string | undefined;
    let record: Buffer | undefined;
    for (;;) {
      if (!(await fill(1))) break;
      if (!(await fill(8))) throw cutShort();
      const length = held.readUInt32BE(0);
      const type = held.toString("latin1", 4, 8);
      if (length > 0x7fffffff) throw cutShort();
      if (!/^[A-Za-z]{4}$/.test(type)) throw new NotAPngError("That PNG file is damaged.");
      first ??= type;
      last = type;
      let crc = zlib.crc32(take(8).subarray(4));
      const keep = !record && type === "iTXt";
      if (keep && length > maxTextBytes + KEYWORD_PEEK) {
        // Too long to be a record of ours: if it is the record, no need to read further.
        await fill(Math.min(length, KEYWORD_PEEK));
        const peek = held.subarray(0, Math.min(length, KEYWORD_PEEK));
        const nul = peek.indexOf(0);
        if (nul > 0 && peek.toString("latin1", 0, nul) === BAKE_KEYWORD) throw new NotAPngError(tooLarge);
      }
      let data: Buffer | undefined;
      if (keep && length <= maxTextBytes + KEYWORD_PEEK) {
        if (!(await fill(length))) throw cutShort();
        data = Buffer.from(take(length));
        crc = zlib.crc32(data, crc);
      } else {
        // Checked as it passes, never kept.
        for (let left = length; left > 0; ) {
          if (!held.length && !(await fill(1))) throw cutShort();
          const piece = take(Math.min(left, held.length));
          crc = zlib.crc32(piece, crc);
          left -= piece.length;
        }
      }
      if (!(await fill(4))) throw cutShort();
      if (take(4).readUInt32BE(0) !== crc) throw new NotAPngError("That PNG file is damaged (a checksum does not match).");
      if (data) {
        const nul = data.indexOf(0);
        if (nul > 0 && data.toString("latin1", 0, nul) === BAKE_KEYWORD) record = data;
      }
      if (type === "IEND") break;
    }
    if (first !== "IHDR" || last !== "IEND") throw new NotAPngError("That PNG file is damaged.");
    return record ? recordText(record, maxTextBytes, tooLarge) : null;
  } finally {
    // Whatever was not read is not wanted: the upload stops here.
    await source.return?.();
  }
}

/** The text of an `openbadges` iTXt chunk's data, as `readBakedPng` reads it. */
function recordText(data: Buffer, maxTextBytes: number, tooLarge: string): string {
  let at = BAKE_KEYWORD.length + 1;
  if (data[at] !== 0) throw new NotAPngError("The badge data in that PNG is compressed, which baked badges must not be.");
  at += 2;
  const langEnd = data.indexOf(0, at);
  const keyEnd = langEnd < 0 ? -1 : data.indexOf(0, langEnd + 1);
  if (keyEnd < 0) throw new NotAPngError("The badge data in that PNG is damaged.");
  if (data.length - keyEnd - 1 > maxTextBytes) throw new NotAPngError(tooLarge);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data.subarray(keyEnd + 1));
  } catch {
    throw new NotAPngError("The badge data in that PNG is not text.");
  }
}
