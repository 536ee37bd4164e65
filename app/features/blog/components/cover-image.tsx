import { useEffect, useRef, useState } from "react";
import { DEFAULT_COVER } from "../blog";
import { COVER_SIZE } from "./post-format";

type Props = {
  src: string;
  alt?: string;
  className?: string;
  /** The first cover on a page: fetched at once and early; every other one waits to be seen. */
  priority?: boolean;
};

/** A post's cover, falling back to the default cover when it is missing or fails to load. */
export function CoverImage({ src, alt = "", className, priority = false }: Props) {
  const ref = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  const shown = failed || !src ? DEFAULT_COVER : src;

  // An eager image may have failed before the page woke up, when nobody listened for it.
  useEffect(() => {
    const img = ref.current;
    if (priority && img && img.complete && img.naturalWidth === 0 && img.getAttribute("src") !== DEFAULT_COVER) setFailed(true);
  }, [priority]);

  return (
    <img
      ref={ref}
      src={shown}
      alt={alt}
      width={COVER_SIZE.width}
      height={COVER_SIZE.height}
      className={className}
      loading={priority ? "eager" : "lazy"}
      decoding={priority ? "auto" : "async"}
      fetchPriority={priority ? "high" : undefined}
      onError={() => {
        if (shown !== DEFAULT_COVER) setFailed(true);
      }}
    />
  );
}
