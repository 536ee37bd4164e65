import { ZOOM } from "../portrait";

/** Where the round 1:1 crop sits on an image: its centre in image pixels, and the zoom. */
export type Crop = { cx: number; cy: number; zoom: number };
export type Rect = { x: number; y: number; size: number };

export const clampZoom = (zoom: number) =>
  Number.isFinite(zoom) ? Math.min(ZOOM.max, Math.max(ZOOM.min, zoom)) : ZOOM.initial;

/** At zoom 1 the square covers the image's short side; zooming in shows less of it. */
export function cropRect(width: number, height: number, crop: Crop): Rect {
  const w = Math.max(1, width);
  const h = Math.max(1, height);
  const size = Math.max(1, Math.min(w, h) / clampZoom(crop.zoom));
  const clamp = (centre: number, side: number) => {
    const start = (Number.isFinite(centre) ? centre : side / 2) - size / 2;
    return Math.min(Math.max(0, start), Math.max(0, side - size));
  };
  return { x: clamp(crop.cx, w), y: clamp(crop.cy, h), size };
}

/** The same crop with its centre pulled back inside the image. */
export function clampCrop(width: number, height: number, crop: Crop): Crop {
  const r = cropRect(width, height, crop);
  return { cx: r.x + r.size / 2, cy: r.y + r.size / 2, zoom: clampZoom(crop.zoom) };
}

export const initialCrop = (width: number, height: number): Crop =>
  clampCrop(width, height, { cx: width / 2, cy: height / 2, zoom: ZOOM.initial });

/**
 * Dragging the picture by (dx, dy) screen pixels on a view `viewSize` pixels wide moves the
 * crop the other way, by the same distance measured in image pixels.
 */
export function panCrop(width: number, height: number, crop: Crop, dx: number, dy: number, viewSize: number): Crop {
  const { size } = cropRect(width, height, crop);
  const scale = size / Math.max(1, viewSize);
  return clampCrop(width, height, { ...crop, cx: crop.cx - dx * scale, cy: crop.cy - dy * scale });
}

export const zoomCrop = (width: number, height: number, crop: Crop, zoom: number): Crop =>
  clampCrop(width, height, { ...crop, zoom });
