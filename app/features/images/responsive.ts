/**
 * The site's own pictures (files under /images/) in the sizes and formats a phone needs:
 * AVIF first, WebP for browsers without it, each in a few widths for `srcset`, made from the
 * original by the build, or on first request and kept (app/features/images/variants.server.ts,
 * /img/<width>/images/….<avif|webp>).
 * Pictures from elsewhere (a cover staff linked from another site) are shown as they are.
 */
export const VARIANT_WIDTHS = [160, 240, 320, 480, 640, 800, 1200] as const;
export type VariantFormat = "avif" | "webp";
export const VARIANT_FORMATS: readonly VariantFormat[] = ["avif", "webp"];

/** A site picture that can have variants: /images/… with a raster extension, nothing odd in the path. */
export const VARIANT_SOURCE = /^\/images\/(?:[a-z0-9_-]+\/)*[a-z0-9_-]+\.(?:webp|png|jpe?g)$/;

/** A variant's address: the original's path under /img/<width>, with the format's extension added last (so static file serving names its type right). */
export const variantPath = (src: string, width: number, format: VariantFormat) => `/img/${width}${src}.${format}`;

/**
 * The `srcset` of each format for a picture shown at most `maxWidth` CSS pixels wide (up to
 * twice that for sharp screens, never past the original's width), or undefined for a picture
 * that has no variants. Lite mode sends one width, for one device pixel per CSS pixel.
 */
export function variantSets(src: string, originalWidth: number, maxWidth: number, lite = false) {
  if (!VARIANT_SOURCE.test(src)) return undefined;
  const fits = (limit: number) => VARIANT_WIDTHS.filter((w) => w <= Math.min(originalWidth, limit));
  let widths: number[] = lite ? fits(maxWidth).slice(-1) : fits(maxWidth * 2);
  if (widths.length === 0) widths = [VARIANT_WIDTHS[0]];
  const set = (format: VariantFormat) => widths.map((w) => `${variantPath(src, w, format)} ${w}w`).join(", ");
  // An original between two widths is itself the sharpest choice where it is wanted.
  const original = !lite && originalWidth > widths.at(-1)! && originalWidth <= maxWidth * 2 ? `, ${src} ${originalWidth}w` : "";
  return { avif: set("avif"), webp: set("webp") + original, fallback: lite ? variantPath(src, widths[0]!, "webp") : src };
}
