import { describe, expect, it } from "vitest";
import { kitFonts, needsOtherScripts } from "./fonts.server";

const subsetsOf = async (text: string) => new Set((await kitFonts(text)).map((f) => `${f.name} ${f.weight}`)).size;

describe("the kit's fonts", () => {
  it("reads the Latin subsets for Kenyan and European names, and the other scripts only when a name needs them", async () => {
    for (const latin of ["Amani Wanjiku", "Wanjirũ Njoroge", "José Ødegård", "Łucja Dvořák", "KES 1,300 · 23 November", "Ngũgĩ wa Thiong’o – “Big Friend”"]) {
      expect(needsOtherScripts(latin), latin).toBe(false);
    }
    for (const other of ["Дмитрий", "Αλέξανδρος", "Nguyễn Văn An", "Wanjiru\u0303"]) expect(needsOtherScripts(other), other).toBe(true);

    const latin = await kitFonts("Amani Wanjiku");
    const all = await kitFonts("Дмитрий Петров");
    // Fraunces 700 (latin, latin-ext) and Inter 400/600/800 (latin, latin-ext); then four more Inter subsets a weight.
    expect(latin).toHaveLength(2 + 3 * 2);
    expect(all).toHaveLength(2 + 3 * 6);
    expect(all.slice(0, latin.length)).toEqual(latin);
    // The same array each time: satori keeps its parsed fonts for it.
    expect(await kitFonts("Achieng")).toBe(latin);
    expect(await kitFonts("Ελένη")).toBe(all);
    expect(await subsetsOf("x")).toBe(4);
  });
});
