/** The spec's portrait rules and words (sections 5 and 9), shared by the crop UI and the server. */
export const PORTRAIT_MAX_BYTES = 6 * 1024 * 1024;
export const PORTRAIT_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export const PORTRAIT_TYPE_MESSAGE = "Please choose an image file (PNG, JPG, or WEBP).";
export const PORTRAIT_SIZE_MESSAGE = "Please choose an image smaller than 6MB.";
/**
 * A portrait sent with the order form without JavaScript: the original photo, as a phone saves
 * it (a 12 MP JPEG is about 10 MB, a 50 MP one 20-30 MB). Read as it arrives, never whole in
 * memory. With JavaScript only the cropped 720x720 picture is sent, whatever the original.
 */
export const PORTRAIT_UPLOAD_MAX_BYTES = 25_000_000;
/** Megabytes as phones show a file's size (1 MB = 1,000,000 bytes), never rounded down to the limit. */
function megabytes(bytes: number, limit: number) {
  const whole = Math.round(bytes / 1e6);
  return whole > limit / 1e6 || bytes <= limit ? String(whole) : String(Math.ceil(bytes / 1e5) / 10);
}
/** 'Your photo is 31 MB; the limit is 25 MB. …' */
export const portraitTooLargeMessage = (bytes: number) =>
  `Your photo is ${megabytes(bytes, PORTRAIT_UPLOAD_MAX_BYTES)} MB; the limit is ${PORTRAIT_UPLOAD_MAX_BYTES / 1e6} MB. Choose a smaller photo, or send the order without one and reply to our email with it.`;
/** Largest picture the crop step in the browser reads (phones save up to 50 MP); it sends 720x720 whatever it read. */
export const BROWSER_MAX_PIXELS = 50_000_000;
export const BROWSER_PIXELS_MESSAGE =
  "That picture is too large to process (more than 50 megapixels). Please choose a smaller one.";
/**
 * Largest picture decoded, in pixels: what phone cameras make by default (24 MP on recent
 * iPhones, 12-12.5 MP on most Android phones). A bigger one costs hundreds of MB to decode
 * for a 720x720 result, however few bytes it arrives in.
 */
export const PORTRAIT_MAX_PIXELS = 24_000_000;
export const PORTRAIT_PIXELS_MESSAGE =
  "That picture is too large to process (at most 24 megapixels). Please choose a smaller one.";
export const PORTRAIT_FAILED_MESSAGE = "Could not process portrait. Try a different image.";
export const PORTRAIT_CROP_FAILED_MESSAGE =
  "Could not process portrait. Try adjusting the crop or using a different image.";
export const ZOOM = { min: 1, max: 3, step: 0.05, initial: 1.2 } as const;

/** Put in a failed reply's values when the form carried a portrait file (which a page reload loses). */
export const PORTRAIT_SENT = "sent";
