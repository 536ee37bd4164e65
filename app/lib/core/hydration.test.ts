import { describe, expect, it } from "vitest";
import { hydrates } from "./hydration";

describe("hydrates", () => {
  it("hydrates a page whose routes say nothing", () => {
    expect(hydrates([{ handle: undefined }, { handle: { page: "blogs" } }])).toBe(true);
  });

  it("sends a page without scripts when any of its routes opts out", () => {
    expect(hydrates([{ handle: undefined }, { handle: { page: "about", hydrate: false } }])).toBe(false);
  });

  it("only an explicit false opts out", () => {
    expect(hydrates([{ handle: { hydrate: true } }, { handle: { hydrate: undefined } }])).toBe(true);
  });
});
