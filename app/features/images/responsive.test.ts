import { describe, expect, it } from "vitest";
import { variantSets } from "./responsive";

describe("variantSets", () => {
  it("offers AVIF and WebP in widths up to twice the shown width, never past the original", () => {
    const sets = variantSets("/images/merch/hoodie.webp", 480, 300)!;
    expect(sets.avif).toBe(
      "/img/160/images/merch/hoodie.webp.avif 160w, /img/240/images/merch/hoodie.webp.avif 240w, /img/320/images/merch/hoodie.webp.avif 320w, /img/480/images/merch/hoodie.webp.avif 480w",
    );
    expect(sets.webp).toContain("/img/480/images/merch/hoodie.webp.webp 480w");
    expect(sets.webp).not.toContain("640w");
    expect(sets.fallback).toBe("/images/merch/hoodie.webp");
  });

  it("adds the original when it is wider than the last width and still wanted", () => {
    expect(variantSets("/images/vespers-poster.webp", 600, 300)!.webp).toMatch(/\/img\/480\/images\/vespers-poster\.webp\.webp 480w, \/images\/vespers-poster\.webp 600w$/);
    expect(variantSets("/images/vespers-poster.webp", 600, 200)!.webp).not.toContain("600w");
  });

  it("sends one width in Lite mode, for one device pixel per CSS pixel", () => {
    const sets = variantSets("/images/blog/campus-week.webp", 1200, 760, true)!;
    expect(sets.avif).toBe("/img/640/images/blog/campus-week.webp.avif 640w");
    expect(sets.fallback).toBe("/img/640/images/blog/campus-week.webp.webp");
  });

  it("leaves pictures from elsewhere, and odd paths, as they are", () => {
    for (const src of ["https://example.org/a.webp", "/images/../site.db", "/images/a.svg", "/uploads/x.webp", "/images/A b.webp"]) {
      expect(variantSets(src, 1200, 300), src).toBeUndefined();
    }
  });
});
