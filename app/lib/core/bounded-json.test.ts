import { describe, expect, it } from "vitest";
import { JSON_TOO_DEEP, JsonShapeError, JsonShapeScanner, jsonShapeProblem, parseBoundedJson } from "./bounded-json";

/** An object holding arrays: `depth` levels in all. */
const nested = (depth: number) => `{"id":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;

/** The scanner's verdict on `text` given in pieces cut at the given places. */
function fedInPieces(text: string, cuts: number[]) {
  const scanner = new JsonShapeScanner(32, 1000);
  let from = 0;
  for (const cut of [...cuts.sort((a, b) => a - b), text.length]) {
    const problem = scanner.feed(text.slice(from, cut));
    if (problem) return problem;
    from = cut;
  }
  return null;
}

describe("bounded JSON", () => {
  it("parses what forms and orders send, escapes and all", async () => {
    const doc = { name: 'A "quoted" \\ name', tags: ["a", "b]", "{c", "\\\\[[["], nested: { deep: [[1, [2, { x: "}" }]]] } };
    expect(await parseBoundedJson(JSON.stringify(doc))).toEqual(doc);
    expect(await jsonShapeProblem(JSON.stringify({ a: "[".repeat(1000) }))).toBeNull();
  });

  it("refuses nesting deeper than 32 levels and too many values, with a sentence, before parsing", async () => {
    expect(await jsonShapeProblem(nested(32))).toBeNull();
    expect(await jsonShapeProblem(nested(33))).toBe("too-deep");
    await expect(parseBoundedJson(nested(3_000_000))).rejects.toThrow(JSON_TOO_DEEP);
    await expect(parseBoundedJson(`[${"0,".repeat(300_000)}0]`)).rejects.toBeInstanceOf(JsonShapeError);
    await expect(parseBoundedJson('{"a":')).rejects.toBeInstanceOf(SyntaxError);
  });

  it("refuses an object with more than 1,000 names, however many objects hold fewer", async () => {
    const object = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":"a:b"`).join(",")}}`;
    expect(await jsonShapeProblem(object(1_000))).toBeNull();
    expect(await jsonShapeProblem(object(1_001))).toBe("too-many");
    expect(await jsonShapeProblem(`{"items":[${Array(5_000).fill('{"id":"x","tags":["a","b"],"size":{"w":1,"h":2}}').join(",")}]}`)).toBeNull();
    expect(await jsonShapeProblem(`[${Array(2_000).fill('"k:"').join(",")}]`)).toBeNull();
    const scanner = new JsonShapeScanner();
    const text = object(49_000);
    expect(scanner.feed(text.slice(0, 65_536))).toBe("too-many");
  });

  it("judges text given in pieces, cut anywhere (inside strings and escapes too), as it judges it whole", () => {
    const samples = [
      JSON.stringify({ a: 'x\\"[[[[', b: ["\\", '"', "\\\\\\"], c: { d: [[[]]] } }),
      JSON.stringify({ s: "\\".repeat(33) + '"' + "[".repeat(40) }),
      nested(33),
      nested(32),
      `{"a":"${"\\\\".repeat(20)}","b":${"[".repeat(31)}${"]".repeat(31)}}`,
      `[${'"x",'.repeat(600)}"y"]`,
    ];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (const text of samples) {
      const whole = fedInPieces(text, []);
      for (let round = 0; round < 300; round++) {
        const cuts = Array.from({ length: 1 + rand(6) }, () => rand(text.length + 1));
        expect(fedInPieces(text, cuts), `${text.slice(0, 30)} cut at ${cuts}`).toBe(whole);
      }
    }
    expect(fedInPieces(nested(33), [])).toBe("too-deep");
    expect(fedInPieces(`[${'"x",'.repeat(600)}"y"]`, [])).toBe("too-many");
  });

  it("knows at the first level too deep: 8 MB of brackets is refused on its first 100 bytes", () => {
    const text = nested(4_000_000);
    const scanner = new JsonShapeScanner();
    expect(scanner.feed(text.slice(0, 100))).toBe("too-deep");
    // And stays refused, whatever follows.
    expect(scanner.feed(text.slice(100, 200))).toBe("too-deep");
  });
});
