/**
 * The logo mark (components/layout/logo.tsx) as SVG markup, for images rendered on the server.
 * Keep the two drawings in step.
 */
export function logoMarkSvg(size: number): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64">` +
    logoMarkShapes() +
    `</svg>`
  );
}

/** The mark's shapes in a 64x64 box, to nest inside another SVG. */
export function logoMarkShapes(): string {
  return (
    `<circle cx="32" cy="32" r="32" fill="#123b5d"/>` +
    `<path d="M32 10v8M24 18h16" stroke="#f5b85a" stroke-width="4" stroke-linecap="round" fill="none"/>` +
    `<path d="M22 24h20l-4 9H26z" fill="#f5b85a"/>` +
    `<path d="M32 33v21M25 54h14" stroke="#f5f1ea" stroke-width="4" stroke-linecap="round" fill="none"/>`
  );
}

export function svgDataUri(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}
