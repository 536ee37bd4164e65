import type { Kysely } from "kysely";
import type { MerchItem } from "../../app/features/merch/merch";
import { merchItemRow } from "../../app/features/merch/merch.server";

type SeedItem = Omit<MerchItem, "currency" | "available"> & { available?: false };

/** The pop-up store's starting catalogue (whole KES). Staff edit it at /merchandise/admin. */
export const seedItems: SeedItem[] = [
  {
    id: "SL-HOODIE",
    slug: "street-light-hoodie",
    name: "Street Light Hoodie",
    description: "Heavyweight cotton-blend hoodie with the lamp mark on the chest and 'Be the light' on the back. Warm enough for a Friday vespers walk.",
    price: 3500,
    impact: "Funds warm meals for a whole street vespers evening.",
    image: "/images/merch/hoodie.webp",
    tags: ["apparel", "bestseller"],
    colors: [
      { label: "Night Blue", swatch: "#123b5d", image: "/images/merch/hoodie.webp" },
      { label: "Lamp Amber", swatch: "#e0892b", image: "/images/merch/hoodie-amber.webp" },
      { label: "Charcoal", swatch: "#333a40", image: "/images/merch/hoodie-charcoal.webp" },
    ],
    sizes: ["S", "M", "L", "XL", "2XL"],
  },
  {
    id: "SL-TOTE",
    slug: "street-light-tote",
    name: "Street Light Tote",
    description: "A sturdy canvas tote for books, groceries and outreach packs.",
    price: 1200,
    impact: "Puts a hygiene pack into someone's hands.",
    image: "/images/merch/tote.webp",
    tags: ["accessories"],
    colors: [],
    sizes: ["One size"],
  },
  {
    id: "SL-TEE",
    slug: "vespers-tee",
    name: "Vespers T-shirt",
    description: "Soft cotton tee printed with the street vespers lamp. Cut for Nairobi afternoons.",
    price: 1500,
    impact: "Buys a blanket for a cold night on the street.",
    image: "/images/merch/tee.webp",
    tags: ["apparel"],
    colors: [
      { label: "White", swatch: "#f7f3ec" },
      { label: "Night Blue", swatch: "#123b5d" },
    ],
    sizes: ["S", "M", "L", "XL"],
  },
  {
    id: "SL-CAP",
    slug: "lamp-cap",
    name: "Lamp Cap",
    description: "Six-panel cap with an embroidered lamp mark.",
    price: 900,
    impact: "Covers transport for a volunteer's outreach night.",
    image: "/images/merch/cap.webp",
    tags: ["accessories"],
    colors: [],
    sizes: [],
  },
  {
    id: "SL-BANDS",
    slug: "wristband-pack",
    name: "Wristband Pack (3)",
    description: "Three silicone wristbands: 'Be the light', 'Street Vespers' and 'Nairobi'. Share two.",
    price: 300,
    impact: "Shares a cup of tea and a snack with a friend on the street.",
    image: "/images/merch/bands.webp",
    tags: ["accessories", "gift"],
    colors: [],
    sizes: [],
  },
  {
    id: "SL-MUG",
    slug: "enamel-mug",
    name: "Enamel Camp Mug",
    description: "The mug we pour vespers tea into, now for your desk.",
    price: 800,
    impact: "Funds tea for ten at a vespers evening.",
    image: "/images/merch/mug.webp",
    tags: ["home"],
    colors: [],
    sizes: [],
    available: false,
  },
];

export const merchSeed = {
  name: "merch-catalogue",
  async run(db: Kysely<any>) {
    for (const [i, item] of seedItems.entries()) {
      await db
        .insertInto("merch_items")
        .values(merchItemRow({ ...item, currency: "KES", available: item.available !== false }, i))
        .onConflict((oc) => oc.column("id").doNothing())
        .execute();
    }
  },
};
