import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseBadgeQuery } from "~/features/team-badges/team-badges.schema";

// A cached page is keyed by the query parameters its route declares (`cacheQuery`, app/lib/core/page-cache.ts):
// a parameter read but not declared would serve one visitor's page to another.
describe("every cached route names the query parameters it reads", () => {
  const routes = fs
    .readdirSync(path.resolve("app/routes"), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".test.ts"))
    .map((f) => ({ file: f, text: fs.readFileSync(path.resolve("app/routes", f), "utf8") }))
    .filter((r) => /cacheSeconds:\s*[1-9]/.test(r.text));

  it("finds the cached routes", () => expect(routes.length).toBeGreaterThanOrEqual(10));

  it.each(routes.map((r) => [r.file, r.text]))("%s", (_file, text) => {
    const declared = /cacheQuery:\s*\[([^\]]*)\]/.exec(text)?.[1]?.match(/"[^"]+"/g)?.map((s) => s.slice(1, -1)) ?? [];
    const read = [...text.matchAll(/(?:params|searchParams|URLSearchParams\([^)]*\))\.get(?:All)?\("([^"]+)"\)/g)].map((m) => m[1]!);
    for (const name of read) expect(declared, `reads ?${name}`).toContain(name);
  });

  it("/badges declares every parameter parseBadgeQuery reads", () => {
    const asked = new Set<string>();
    class Recording extends URLSearchParams {
      override get(name: string) {
        asked.add(name);
        return super.get(name);
      }
      override getAll(name: string) {
        asked.add(name);
        return super.getAll(name);
      }
    }
    parseBadgeQuery(new Recording());
    const badges = routes.find((r) => r.file.endsWith("badges/badges.tsx"))!.text;
    for (const name of asked) expect(badges).toMatch(new RegExp(`cacheQuery:[^\\]]*"${name}"`));
  });
});

