import zlib from "node:zlib";

/**
 * Open Badges baking (1EdTech Badge Baking): one `iTXt` chunk with keyword `openbadges`, no
 * compression, empty language tag and translated keyword, holding the assertion's URL (or its
 * JSON). A chunk already there is replaced, so a file never carries two. Everything else in the
 * file is kept byte for byte.
 */
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const BAKE_KEYWORD = "openbadges";

export class NotAPngError extends Error {}

type Chunk = { type: string; data: Buffer; start: number; end: number };

/** The file's chunks, in order; throws NotAPngError for what is not a whole, well-formed PNG. */
export function pngChunks(png: Buffer): Chunk[] {
  if (png.length < SIGNATURE.length || !png.subarray(0, 8).equals(SIGNATURE)) throw new NotAPngError("That file is not a PNG image.");
  const chunks: Chunk[] = [];
  let at = 8;
  while (at < png.length) {
    if (at + 12 > png.length) throw new NotAPngError("That PNG file is cut short.");
    const length = png.readUInt32BE(at);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > png.length) throw new NotAPngError("That PNG file is cut short.");
    const type = png.toString("latin1", at + 4, at + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) throw new NotAPngError("That PNG file is damaged.");
    const data = png.subarray(at + 8, at + 8 + length);
    if (zlib.crc32(png.subarray(at + 4, at + 8 + length)) !== png.readUInt32BE(at + 8 + length)) throw new NotAPngError("That PNG file is damaged (a checksum does not match).");
    chunks.push({ type, data, start: at, end });
    at = end;
    if (type === "IEND") break;
  }
  if (chunks[0]?.type !== "IHDR" || chunks.at(-1)?.type !== "IEND") throw new NotAPngError("That PNG file is damaged.");
  return chunks;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The iTXt chunk's data: keyword, NUL, compression flag 0, method 0, empty language and translated keyword, text. */
function itxt(text: string): Buffer {
  return Buffer.concat([Buffer.from(`${BAKE_KEYWORD}\0`, "latin1"), Buffer.from([0, 0, 0, 0]), Buffer.from(text, "utf8")]);
}

/** The PNG with `text` (an assertion URL or JSON) baked in, just after the header chunk. */
export function bakePng(png: Buffer, text: string): Buffer {
  const chunks = pngChunks(png);
  const kept = chunks.filter((c) => !(c.type === "iTXt" && readKeyword(c.data) === BAKE_KEYWORD));
  const parts: Buffer[] = [SIGNATURE];
  for (const c of kept) {
    parts.push(png.subarray(c.start, c.end));
    if (c.type === "IHDR") parts.push(chunk("iTXt", itxt(text)));
  }
  return Buffer.concat(parts);
}

const readKeyword = (data: Buffer) => {
  const nul = data.indexOf(0);
  return nul > 0 ? data.toString("latin1", 0, nul) : "";
};

/**
 * What the first `openbadges` chunk holds, or null when there is none. A compressed one is
 * refused (the baking rules forbid it), as is one that is not UTF-8 text, or (with
 * `maxTextBytes`) one longer than any record the reader expects, before it is decoded.
 */
export function readBakedPng(png: Buffer, { maxTextBytes = Infinity, tooLarge = "The badge data in that PNG is too large." } = {}): string | null {
  for (const c of pngChunks(png)) {
    if (c.type !== "iTXt" || readKeyword(c.data) !== BAKE_KEYWORD) continue;
    let at = BAKE_KEYWORD.length + 1;
    const compressed = c.data[at];
    if (compressed !== 0) throw new NotAPngError("The badge data in that PNG is compressed, which baked badges must not be.");
    at += 2;
    const langEnd = c.data.indexOf(0, at);
    const keyEnd = langEnd < 0 ? -1 : c.data.indexOf(0, langEnd + 1);
    if (keyEnd < 0) throw new NotAPngError("The badge data in that PNG is damaged.");
    const text = c.data.subarray(keyEnd + 1);
    if (text.length > maxTextBytes) throw new NotAPngError(tooLarge);
    const decoded = new TextDecoder("utf-8", { fatal: true });
    try {
      return decoded.decode(text);
    } catch {
      throw new NotAPngError("The badge data in that PNG is not text.");
    }
  }
  return null;
}
