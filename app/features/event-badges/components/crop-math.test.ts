import { describe, expect, it } from "vitest";
import { ZOOM } from "../portrait";
import { cropRect, initialCrop, panCrop, zoomCrop } from "./crop-math";

describe("crop maths", () => {
  it("starts centred at the default zoom", () => {
    const crop = initialCrop(1000, 600);
    expect(crop).toEqual({ cx: 500, cy: 300, zoom: ZOOM.initial });
    expect(cropRect(1000, 600, crop)).toEqual({ x: 250, y: 50, size: 500 });
  });

  it("keeps the square inside the image however far it is dragged", () => {
    let crop = initialCrop(1000, 600);
    crop = panCrop(1000, 600, crop, 10_000, -10_000, 300);
    expect(cropRect(1000, 600, crop)).toEqual({ x: 0, y: 100, size: 500 });
    crop = panCrop(1000, 600, crop, -10_000, 10_000, 300);
    expect(cropRect(1000, 600, crop)).toEqual({ x: 500, y: 0, size: 500 });
  });

  it("moves by screen pixels scaled to the image", () => {
    const crop = panCrop(1000, 600, initialCrop(1000, 600), 30, 0, 300);
    // 500 image pixels are shown across 300 screen pixels: 30 px is 50 image pixels.
    expect(crop.cx).toBeCloseTo(450);
  });

  it("clamps the zoom to 1..3 and re-clamps the position", () => {
    const crop = zoomCrop(1000, 600, { cx: 0, cy: 0, zoom: 9 }, 9);
    expect(crop.zoom).toBe(ZOOM.max);
    expect(cropRect(1000, 600, crop)).toEqual({ x: 0, y: 0, size: 200 });
    expect(zoomCrop(1000, 600, crop, 0.2).zoom).toBe(ZOOM.min);
  });

  it("is at least one pixel, even for a one-pixel image", () => {
    const r = cropRect(1, 1, { cx: Number.NaN, cy: 5, zoom: 3 });
    expect(r.size).toBe(1);
    expect(r.x).toBe(0);
    expect(r.y).toBe(0);
  });
});
