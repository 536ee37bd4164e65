import fs from "node:fs/promises";
import { createRequire } from "node:module";
import type { SatoriOptions } from "satori";

type FontOptions = SatoriOptions["fonts"][number];
type Weight = NonNullable<FontOptions["weight"]>;

/** The families the templates name. Anything they lack falls back to the rest of the list. */
export const SANS = "Inter";
export const DISPLAY = "Fraunces";

// Latin and Latin Extended cover Kenyan and European names (ũ, ĩ, é, ø) and are read for every
// render; the other Inter subsets (Greek, Cyrillic, Vietnamese) are the broad fallback for names
// in those scripts, read only when a picture's text needs them (they are 11-18 MB of a server's
// memory once parsed, for a name the site may never see).
const LATIN_SUBSETS = ["latin", "latin-ext"];
const OTHER_SANS_SUBSETS = ["vietnamese", "cyrillic", "cyrillic-ext", "greek"];
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

/**
 * True when `text` has a letter outside what the Latin subsets draw (Basic Latin, Latin-1,
 * Latin Extended, general punctuation, currency and letter-like signs). Combining marks (a
 * name typed decomposed) and Vietnamese letters with two marks (U+1EA0-1EF9) are outside too.
 */
export const needsOtherScripts = (text: string) => /[^\u0000-\u024f\u02b0-\u02ff\u1e00-\u1e9f\u2000-\u206f\u20a0-\u20c0\u2100-\u2215]/.test(text);

const latinFonts = () => [
  ...DISPLAY_WEIGHTS.flatMap((w) => DISPLAY_SUBSETS.map((s) => load("@fontsource/fraunces", `fraunces-${s}-${w}-normal.woff`, DISPLAY, w))),
  ...SANS_WEIGHTS.flatMap((w) => LATIN_SUBSETS.map((s) => load("@fontsource/inter", `inter-${s}-${w}-normal.woff`, SANS, w))),
];

let fonts: Promise<FontOptions[]> | undefined;
let allFonts: Promise<FontOptions[]> | undefined;

/**
 * The fonts a picture with this text needs, read once per process: the Latin set, or (for text
 * in another script) the Latin set and every other Inter subset. The same array object is handed
 * to satori on every call of a kind, which lets satori keep its parsed fonts cached between renders.
 */
export function kitFonts(text = ""): Promise<FontOptions[]> {
  fonts ??= Promise.all(latinFonts()).catch((e) => {
    fonts = undefined;
    throw e;
  });
  if (!needsOtherScripts(text)) return fonts;
  allFonts ??= Promise.all([
    fonts,
    Promise.all(SANS_WEIGHTS.flatMap((w) => OTHER_SANS_SUBSETS.map((s) => load("@fontsource/inter", `inter-${s}-${w}-normal.woff`, SANS, w)))),
  ])
    .then(([latin, other]) => [...latin, ...other])
    .catch((e) => {
      allFonts = undefined;
      throw e;
    });
  return allFonts;
}
