import satori from "satori";
import { DISPLAY, kitFonts } from "./fonts.server";
import { roughEm, type MeasureEm } from "./text";

// Printable ASCII, Latin-1 and Latin Extended-A: the letters of nearly every name we expect.
const CHARS = Array.from({ length: 0x17f - 0x21 + 1 }, (_, i) => String.fromCodePoint(0x21 + i)).filter(
  (c) => /[\p{L}\p{N}\p{P}\p{S}]/u.test(c),
);
const PROBE = 100;

let table: Promise<MeasureEm> | undefined;

/**
 * Advance widths of the display font (bold), measured once by laying the characters out with
 * satori itself, so the name-fitting estimate uses the same metrics as the render.
 */
export function displayMeasure(): Promise<MeasureEm> {
  table ??= (async () => {
    const widths = new Map<string, number>();
    const probe = (key: string, text: string) => (
      <div key={key} data-k={key} style={{ display: "flex", whiteSpace: "pre" }}>
        {text}
      </div>
    );
    await satori(
      <div
        style={{ display: "flex", flexWrap: "wrap", width: 8000, fontFamily: DISPLAY, fontWeight: 700, fontSize: PROBE }}
      >
        {CHARS.map((c) => probe(c, c))}
        {probe("x x", "x x")}
        {probe("xx", "xx")}
      </div>,
      {
        width: 8000,
        height: 2000,
        fonts: await kitFonts(),
        onNodeDetected: (node) => {
          const k = node.props?.["data-k"];
          if (typeof k === "string") widths.set(k, node.width / PROBE);
        },
      },
    );
    const space = Math.max(0.2, (widths.get("x x") ?? 0) - (widths.get("xx") ?? 0));
    return (text: string) => {
      let w = 0;
      for (const ch of text) w += ch === " " ? space : (widths.get(ch) ?? roughEm(ch));
      return w;
    };
  })().catch((e) => {
    table = undefined;
    throw e;
  });
  return table;
}
