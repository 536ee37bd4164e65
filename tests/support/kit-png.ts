import sharp from "sharp";

/** A stand-in badge or poster for tests that approve orders: a plain 1080x1080 PNG, as the kit's checks want. */
export const plainKitPng = () => sharp({ create: { width: 1080, height: 1080, channels: 3, background: "#123b5d" } }).png().toBuffer();
