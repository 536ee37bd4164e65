/** The spec's portrait rules and words (sections 5 and 9), shared by the crop UI and the server. */
export const PORTRAIT_MAX_BYTES = 6 * 1024 * 1024;
export const PORTRAIT_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export const PORTRAIT_TYPE_MESSAGE = "Please choose an image file (PNG, JPG, or WEBP).";
export const PORTRAIT_SIZE_MESSAGE = "Please choose an image smaller than 6MB.";
export const PORTRAIT_FAILED_MESSAGE = "Could not process portrait. Try a different image.";
export const PORTRAIT_CROP_FAILED_MESSAGE =
  "Could not process portrait. Try adjusting the crop or using a different image.";
export const ZOOM = { min: 1, max: 3, step: 0.05, initial: 1.2 } as const;
