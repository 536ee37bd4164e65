import { useEffect, useRef, useState } from "react";
import { ResponsiveImage } from "~/components/ui/responsive-image";
import { DEFAULT_COVER, isExpiredCover } from "../blog";
import { COVER_SIZE } from "./post-format";

type Props = {
  src: string;
  alt?: string;
  className?: string;
  /** The first cover on a page: fetched at once and early; every other one waits to be seen. */
  priority?: boolean;
  /** How wide it is shown: a card in the list (the default), a post's own cover, or a small related card. */
  shown?: keyof typeof COVER_WIDTHS;
};

/** The widest each kind of cover is drawn (CSS pixels) and `sizes` for it (app/styles/blog.css). */
const COVER_WIDTHS = {
  card: { maxWidth: 560, sizes: "(min-width: 1180px) 360px, (min-width: 720px) 50vw, 100vw" },
  post: { maxWidth: 760, sizes: "(min-width: 800px) 760px, 100vw" },
  related: { maxWidth: 360, sizes: "(min-width: 720px) 280px, 100vw" },
} as const;

/** A post's cover, falling back to the default cover when it is missing or fails to load. */
export function CoverImage({ src, alt = "", className, priority = false, shown: kind = "card" }: Props) {
  const ref = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  // An expired LinkedIn cover is known dead before it is asked for: the default from the first paint.
  const shown = failed || !src || isExpiredCover(src) ? DEFAULT_COVER : src;

  // An eager image may have failed before the page woke up, when nobody listened for it.
  useEffect(() => {
    const img = ref.current;
    if (priority && img && img.complete && img.naturalWidth === 0 && shown !== DEFAULT_COVER) setFailed(true);
  }, [priority, shown]);

  return (
    <ResponsiveImage
      imgRef={ref}
      src={shown}
      alt={alt}
      width={COVER_SIZE.width}
      height={COVER_SIZE.height}
      {...COVER_WIDTHS[kind]}
      className={className}
      priority={priority}
      onError={() => {
        if (shown !== DEFAULT_COVER) setFailed(true);
      }}
    />
  );
}
