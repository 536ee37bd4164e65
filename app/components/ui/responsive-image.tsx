import type { Ref, SyntheticEvent } from "react";
import { useLite } from "~/components/layout/use-lite";
import { variantSets } from "~/features/images/responsive";

type Props = {
  src: string;
  alt: string;
  /** The picture's own size (sets the box before it loads: no layout shift). */
  width: number;
  height: number;
  /** The widest it is ever shown, in CSS pixels, and `sizes` saying how wide it is shown where. */
  maxWidth: number;
  sizes: string;
  /** The page's main picture: fetched at once with high priority; every other one waits to be seen. */
  priority?: boolean;
  className?: string;
  imgRef?: Ref<HTMLImageElement>;
  onError?: (e: SyntheticEvent<HTMLImageElement>) => void;
};

/**
 * A site picture as a phone needs it: AVIF or WebP in the width it is shown at (srcset/sizes),
 * its size set, lazy unless it is the page's main picture, smaller still in Lite mode.
 */
export function ResponsiveImage({ src, alt, width, height, maxWidth, sizes, priority = false, className, imgRef, onError }: Props) {
  const lite = useLite();
  const sets = variantSets(src, width, maxWidth, lite);
  const img = (
    <img
      ref={imgRef}
      src={sets?.fallback ?? src}
      srcSet={sets?.webp}
      sizes={sets ? sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      className={className}
      loading={priority ? "eager" : "lazy"}
      decoding={priority ? "auto" : "async"}
      fetchPriority={priority ? "high" : undefined}
      onError={onError}
    />
  );
  if (!sets) return img;
  return (
    <picture>
      <source type="image/avif" srcSet={sets.avif} sizes={sizes} />
      {img}
    </picture>
  );
}
