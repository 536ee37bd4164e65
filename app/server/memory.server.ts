import sharp from "sharp";

/**
 * Memory for a 1 GB server. libvips (sharp: portraits, kit uploads, image variants) keeps a
 * cache of recent operations (50 MB by default) and runs one thread per core, each with its
 * own buffers; the server re-encodes each picture once, so a cache only holds memory, and one
 * thread at a time is enough for its few pictures a second (decodes are queued anyway,
 * portrait.server.ts). Called once at start.
 */
export function limitImageMemory() {
  sharp.cache(false);
  sharp.concurrency(1);
}
