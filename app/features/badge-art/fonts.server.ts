import fs from "node:fs/promises";
import { createRequire } from "node:module";
import type { SatoriOptions } from "satori";

type FontOptions = SatoriOptions["fonts"][number];
type Weight = NonNullable<FontOptions["weight"]>;

/** The families the templates name. Anything they lack falls back to the rest of the list. */
export const SANS = "Inter";
export const DISPLAY = "Fraunces";

// Latin and Latin Extended cover Kenyan and European names (ũ, ĩ, é, ø); the other Inter
// subsets are the broad fallback for names in Greek, Cyrillic or Vietnamese script.
const SANS_SUBSETS = ["latin", "latin-ext", "vietnamese", "cyrillic", "cyrillic-ext", "greek"];
const SANS_WEIGHTS: Weight[] = [400, 600, 800];
const DISPLAY_SUBSETS = ["latin", "latin-ext"];
const DISPLAY_WEIGHTS: Weight[] = [700];

// Resolved at run time from node_modules: the server bundle keeps node_modules beside it,
// and satori needs the raw .woff bytes (it cannot read woff2).
const nodeRequire = createRequire(import.meta.url);

async function load(pkg: string, file: string, name: string, weight: Weight): Promise<FontOptions> {
  const data = await fs.readFile(nodeRequire.resolve(`${pkg}/files/${file}`));
  return { name, data, weight, style: "normal" };
}

let fonts: Promise<FontOptions[]> | undefined;

/**
 * Every font the kit uses, read once per process. The same array object is handed to satori on
 * every call, which lets satori keep its parsed fonts cached between renders.
 */
export function kitFonts(): Promise<FontOptions[]> {
  fonts ??= Promise.all([
    ...DISPLAY_WEIGHTS.flatMap((w) =>
      DISPLAY_SUBSETS.map((s) => load("@fontsource/fraunces", `fraunces-${s}-${w}-normal.woff`, DISPLAY, w)),
    ),
    ...SANS_WEIGHTS.flatMap((w) =>
      SANS_SUBSETS.map((s) => load("@fontsource/inter", `inter-${s}-${w}-normal.woff`, SANS, w)),
    ),
  ]).catch((e) => {
    fonts = undefined;
    throw e;
  });
  return fonts;
}
