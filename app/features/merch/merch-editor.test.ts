import { describe, expect, it } from "vitest";
import { formatColours, parseColours, parseEditorItem, type EditorFields } from "./merch-editor";
import { MerchItemSchema } from "./merch.schema";

const fields = (over: Partial<EditorFields> = {}): EditorFields => ({
  id: "SL-HOODIE",
  name: "Street Light Hoodie",
  slug: "street-light-hoodie",
  description: "Warm.",
  price: "3500",
  currency: "KES",
  impact: "Meals.",
  image: "/images/merch/hoodie.webp",
  tags: "apparel",
  available: true,
  colors: "",
  sizes: "",
  ...over,
});

describe("parseEditorItem: spec section 5, 'Merch admin save'", () => {
  it.each([
    ["3500", 3500],
    ["3500.00", 3500],
    [" 1200 ", 1200],
    ["1499.6", 1500],
    ["1499.4", 1499],
    ["0", 0],
    ["2500 KES", 2500],
    ["3,500", 3500],
    ["3 500", 3500],
    ["abc", 0],
    ["", 0],
    ["Infinity", 0],
    ["-Infinity", 0],
    ["NaN", 0],
  ])("price %j becomes %j (decimal parse, non-finite 0, whole shillings)", (price, expected) => {
    expect(parseEditorItem(fields({ price })).price).toBe(expected);
  });

  it("name and slug are trimmed; a blank slug falls back to the (trimmed, lower-cased) id", () => {
    const item = parseEditorItem(fields({ id: "  SL-CAP ", name: "  Lamp Cap  ", slug: "  lamp-cap " }));
    expect(item).toMatchObject({ id: "SL-CAP", name: "Lamp Cap", slug: "lamp-cap" });
    expect(parseEditorItem(fields({ id: " SL-CAP ", slug: "   " })).slug).toBe("sl-cap");
    expect(parseEditorItem(fields({ id: "sl-cap", slug: "" })).slug).toBe("sl-cap");
  });

  it.each([
    ["", "KES"],
    ["   ", "KES"],
    ["USD", "USD"],
    [" kes ", "KES"],
  ])("currency %j becomes %j", (currency, expected) => {
    expect(parseEditorItem(fields({ currency })).currency).toBe(expected);
  });

  it.each([
    [true, true],
    [undefined, true],
    ["", true],
    ["true", true],
    ["on", true],
    ["yes", true],
    [false, false],
    ["false", false],
    [" FALSE ", false],
  ] as const)("available %j is %j (true unless explicitly false)", (available, expected) => {
    expect(parseEditorItem(fields({ available })).available).toBe(expected);
  });

  it("tags and sizes are comma lists, trimmed, blanks dropped", () => {
    const item = parseEditorItem(fields({ tags: " apparel, ,bestseller ,, ", sizes: "S, M ,L,,XL, " }));
    expect(item.tags).toEqual(["apparel", "bestseller"]);
    expect(item.sizes).toEqual(["S", "M", "L", "XL"]);
    expect(parseEditorItem(fields({ tags: "", sizes: " , " }))).toMatchObject({ tags: [], sizes: [] });
  });

  it("colours are lines by newline or semicolon; the whole item then passes the save schema", () => {
    const item = parseEditorItem(
      fields({ colors: "Night Blue|#123b5d|/images/merch/hoodie.webp\nLamp Amber|#e0892b; Charcoal|#333a40" }),
    );
    expect(item.colors).toEqual([
      { label: "Night Blue", swatch: "#123b5d", image: "/images/merch/hoodie.webp" },
      { label: "Lamp Amber", swatch: "#e0892b" },
      { label: "Charcoal", swatch: "#333a40" },
    ]);
    expect(MerchItemSchema.parse(item)).toEqual(item);
  });
});

describe("parseColours", () => {
  it("'label|hex|image', each part trimmed; blank lines dropped; CRLF too", () => {
    expect(parseColours("  Night Blue | #123b5d | /images/a.webp \r\n\r\n;;  \n White|#fff")).toEqual([
      { label: "Night Blue", swatch: "#123b5d", image: "/images/a.webp" },
      { label: "White", swatch: "#fff" },
    ]);
  });

  it("the label falls back to the hex, then to 'Colour'; the swatch to #000000", () => {
    expect(parseColours("|#123b5d")).toEqual([{ label: "#123b5d", swatch: "#123b5d" }]);
    expect(parseColours("||/images/x.webp")).toEqual([{ label: "Colour", swatch: "#000000", image: "/images/x.webp" }]);
    expect(parseColours("Plain")).toEqual([{ label: "Plain", swatch: "#000000" }]);
    expect(parseColours("Plain|")).toEqual([{ label: "Plain", swatch: "#000000" }]);
  });

  it("no image part means no image key", () => {
    const [c] = parseColours("Charcoal|#333a40|");
    expect(c).toEqual({ label: "Charcoal", swatch: "#333a40" });
    expect(Object.keys(c!)).toEqual(["label", "swatch"]);
  });

  it("nothing typed gives no colours", () => {
    expect(parseColours("")).toEqual([]);
    expect(parseColours(" \n ; ")).toEqual([]);
  });
});

describe("formatColours", () => {
  const colours = [
    { label: "Night Blue", swatch: "#123b5d", image: "/images/merch/hoodie.webp" },
    { label: "Lamp Amber", swatch: "#e0892b" },
  ];

  it("writes one 'label|hex|image' line each, without a trailing bar when there is no image", () => {
    expect(formatColours(colours)).toBe("Night Blue|#123b5d|/images/merch/hoodie.webp\nLamp Amber|#e0892b");
    expect(formatColours([])).toBe("");
  });

  it("round trips through parseColours", () => {
    expect(parseColours(formatColours(colours))).toEqual(colours);
    const typed = "Night Blue|#123b5d|/images/merch/hoodie.webp\nLamp Amber|#e0892b";
    expect(formatColours(parseColours(typed))).toBe(typed);
  });
});
