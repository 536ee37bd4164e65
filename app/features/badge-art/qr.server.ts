import QRCode from "qrcode";
import { logoMarkShapes } from "./mark";

/** Spec section 9: the poster's QR code is 144 px, high error correction, logo in the centre. */
export const QR_SIZE = 144;
/** Below this many pixels a module stops scanning reliably (share URLs near the 500 limit). */
const MIN_MODULE_PX = 2;
export const QR_QUIET_ZONE = 16;
const LOGO_FRACTION = 0.2;

export function qrMatrix(text: string) {
  return QRCode.create(text, { errorCorrectionLevel: "H" });
}

/**
 * The QR code as SVG: a white quiet-zone square, the modules as one crisp path scaled to
 * QR_SIZE px (larger only for a very long URL), and the logo mark on a white disc in the
 * middle. The modules under the disc are left out; level H restores far more than they cover.
 */
export function qrSvg(text: string): { svg: string; size: number } {
  const qr = qrMatrix(text);
  const n = qr.modules.size;
  // 144 px for any ordinary share URL; only a very long one grows the code to keep it scannable.
  const side = Math.max(QR_SIZE, n * MIN_MODULE_PX);
  const cell = side / n;
  const logo = side * LOGO_FRACTION;
  const hole = logo + 2 * cell; // a clear ring of about one module around the disc
  const mid = side / 2;
  const reach = (hole / 2 + cell / 2) ** 2;

  let d = "";
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      if (!qr.modules.get(y, x)) continue;
      const [cx, cy] = [(x + 0.5) * cell - mid, (y + 0.5) * cell - mid];
      if (cx * cx + cy * cy < reach) continue;
      d += `M${x} ${y}h1v1h-1z`;
    }
  }

  const total = side + 2 * QR_QUIET_ZONE;
  const q = QR_QUIET_ZONE;
  const c = total / 2;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="${total}" viewBox="0 0 ${total} ${total}">` +
    `<rect width="${total}" height="${total}" fill="#ffffff"/>` +
    `<g transform="translate(${q} ${q}) scale(${cell})"><path d="${d}" fill="#000000" shape-rendering="crispEdges"/></g>` +
    `<circle cx="${c}" cy="${c}" r="${hole / 2}" fill="#ffffff"/>` +
    `<g transform="translate(${c - logo / 2} ${c - logo / 2}) scale(${logo / 64})">${logoMarkShapes()}</g>` +
    `</svg>`;
  return { svg, size: total };
}
