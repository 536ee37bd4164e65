import { DEFAULT_CURRENCY, type MerchColor, type MerchItem } from "./merch";

/** The item editor's fields as typed (spec section 5, 'Merch admin save'). */
export type EditorFields = {
  id: string;
  name: string;
  slug: string;
  description: string;
  price: string;
  currency: string;
  impact: string;
  image: string;
  tags: string;
  available: string | boolean | undefined;
  colors: string;
  sizes: string;
};

const commaList = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** 'label|hex|image' lines, separated by newlines or semicolons. */
export function parseColours(text: string): MerchColor[] {
  return text
    .split(/[\n;]/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [label = "", hex = "", image = ""] = line.split("|").map((p) => p.trim());
      const color: MerchColor = { label: label || hex || "Colour", swatch: hex || "#000000" };
      if (image) color.image = image;
      return color;
    });
}

export const formatColours = (colors: MerchColor[]) =>
  colors.map((c) => [c.label, c.swatch, c.image ?? ""].join("|").replace(/\|$/, "")).join("\n");

/**
 * The spec's rules: price parsed as a decimal (non-finite becomes 0; whole KES are kept);
 * name and slug trimmed, the slug falling back to the id (lower-cased, as slugs are); currency falling back to KES;
 * available unless explicitly false; tags and sizes comma lists without blanks.
 */
export function parseEditorItem(f: EditorFields): MerchItem {
  // "3,500" and "3 500" are how prices are written here: drop thousands separators first.
  const price = Number.parseFloat(f.price.replace(/[,\s]/g, ""));
  const id = f.id.trim();
  const availableText = typeof f.available === "string" ? f.available.trim().toLowerCase() : f.available;
  return {
    id,
    name: f.name.trim(),
    slug: f.slug.trim() || id.toLowerCase(),
    description: f.description.trim(),
    price: Number.isFinite(price) ? Math.round(price) : 0,
    currency: f.currency.trim().toUpperCase() || DEFAULT_CURRENCY,
    impact: f.impact.trim(),
    image: f.image.trim(),
    tags: commaList(f.tags),
    available: !(availableText === false || availableText === "false" || availableText === "off" || availableText === "0"),
    colors: parseColours(f.colors),
    sizes: commaList(f.sizes),
  };
}
