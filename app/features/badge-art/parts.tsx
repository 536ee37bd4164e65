import type { CSSProperties, ReactNode } from "react";
import { DISPLAY, SANS } from "./fonts.server";
import { logoMarkSvg, svgDataUri } from "./mark";

export const SIZE = 1080;

/** The root of every 1080x1080 image. */
export function Canvas({ style, children }: { style?: CSSProperties; children: ReactNode }) {
  return (
    <div
      style={{
        display: "flex",
        flexDirection: "column",
        boxSizing: "border-box",
        width: SIZE,
        height: SIZE,
        fontFamily: SANS,
        position: "relative",
        // No overflow: hidden here. The SVG viewport already clips, and satori would wrap
        // every element in a full-canvas mask, which makes resvg several times slower.
        ...style,
      }}
    >
      {children}
    </div>
  );
}

let markCache = new Map<number, string>();
export function LogoMark({ size }: { size: number }) {
  let src = markCache.get(size);
  if (!src) {
    if (markCache.size > 16) markCache = new Map();
    src = svgDataUri(logoMarkSvg(size));
    markCache.set(size, src);
  }
  return <img src={src} width={size} height={size} alt="" style={{ width: size, height: size }} />;
}

/** A round portrait, or the initials on a tinted disc, with a ring and a thin gap. */
export function Avatar(props: {
  size: number;
  portrait: string | null;
  initials: string;
  ring: string;
  gap: string;
  fill: string;
  ink: string;
}) {
  const { size, ring, gap } = props;
  const ringWidth = Math.round(size * 0.035);
  const gapWidth = Math.round(size * 0.025);
  const inner = size - 2 * (ringWidth + gapWidth);
  return (
    <div
      style={{
        display: "flex",
        width: size,
        height: size,
        flexShrink: 0,
        borderRadius: size,
        background: ring,
        padding: ringWidth,
        boxSizing: "border-box",
      }}
    >
      <div
        style={{
          display: "flex",
          width: "100%",
          height: "100%",
          borderRadius: size,
          background: gap,
          padding: gapWidth,
          boxSizing: "border-box",
        }}
      >
        {props.portrait ? (
          <img
            src={props.portrait}
            width={inner}
            height={inner}
            alt=""
            style={{ width: inner, height: inner, borderRadius: inner, objectFit: "cover" }}
          />
        ) : (
          <div
            style={{
              display: "flex",
              alignItems: "center",
              justifyContent: "center",
              width: inner,
              height: inner,
              borderRadius: inner,
              background: props.fill,
              color: props.ink,
              fontFamily: DISPLAY,
              fontWeight: 700,
              fontSize: Math.round(inner * (Array.from(props.initials).length > 1 ? 0.38 : 0.46)),
              letterSpacing: "0.02em",
            }}
          >
            {props.initials}
          </div>
        )}
      </div>
    </div>
  );
}

/** A tick in a circle, drawn rather than typed (fonts' check glyphs vary). */
export function Tick({ size, color, background }: { size: number; color: string; background: string }) {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24">` +
    `<circle cx="12" cy="12" r="12" fill="${background}"/>` +
    `<path d="M6.5 12.5l3.5 3.5 7.5-8" stroke="${color}" stroke-width="2.6" fill="none" stroke-linecap="round" stroke-linejoin="round"/>` +
    `</svg>`;
  return <img src={svgDataUri(svg)} width={size} height={size} alt="" style={{ width: size, height: size }} />;
}

/** A right arrow towards the QR code (the latin font subsets carry no arrows). */
export function Arrow({ size, color }: { size: number; color: string }) {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24">` +
    `<path d="M4 12h15M13 6l6 6-6 6" stroke="${color}" stroke-width="2.8" fill="none" stroke-linecap="round" stroke-linejoin="round"/>` +
    `</svg>`;
  return <img src={svgDataUri(svg)} width={size} height={size} alt="" style={{ width: size, height: size }} />;
}
