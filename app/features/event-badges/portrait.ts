/** The spec's portrait rules and words (sections 5 and 9), shared by the crop UI and the server. */
export const PORTRAIT_MAX_BYTES = 6 * 1024 * 1024;
export const PORTRAIT_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export const PORTRAIT_TYPE_MESSAGE = "Please choose an image file (PNG, JPG, or WEBP).";
export const PORTRAIT_SIZE_MESSAGE = "Please choose an image smaller than 6MB.";
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
