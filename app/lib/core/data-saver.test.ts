import { describe, expect, it } from "vitest";
import { liteToggleHref, prefersLite } from "./data-saver";
import { safeReturnPath } from "./return-path";

const headers = (h: Record<string, string>) => new Headers(h);

describe("Lite mode", () => {
  it("is on with Save-Data: on or the lite=1 cookie; lite=0 wins over the header", () => {
    expect(prefersLite(headers({}))).toBe(false);
    expect(prefersLite(headers({ "save-data": "on" }))).toBe(true);
    expect(prefersLite(headers({ "save-data": " ON " }))).toBe(true);
    expect(prefersLite(headers({ "save-data": "off" }))).toBe(false);
    expect(prefersLite(headers({ cookie: "cid=abcdefgh12; lite=1" }))).toBe(true);
    expect(prefersLite(headers({ cookie: "lite=0", "save-data": "on" }))).toBe(false);
    expect(prefersLite(headers({ cookie: "notlite=1" }))).toBe(false);
  });

  it("sends the visitor back to a path on this site only", () => {
    expect(safeReturnPath("/blogs?tag=x")).toBe("/blogs?tag=x");
    for (const bad of [null, "", "blogs", "//evil.example", "/\\evil", "https://evil.example/", "/caf\u00e9", `/${"a".repeat(400)}`, "/\t/evil.example", "/\n/evil", "/ /x"]) {
      expect(safeReturnPath(bad)).toBe("/");
    }
    expect(liteToggleHref(true, "/event?x=1")).toBe("/lite?on=1&to=%2Fevent%3Fx%3D1");
  });
});
