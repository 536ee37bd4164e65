import fs from "node:fs";
import { createRequire } from "node:module";
import { expect, test } from "../support/e2e-fixtures";
import { PAGES } from "../bench/pages.mjs";

/**
 * Text a reader on a phone in the sun can read: axe-core's color-contrast rule (WCAG AA, 4.5:1
 * for body text) on the public pages `npm run lighthouse` audits, as the browser drew them once
 * settled. axe-core is Lighthouse's own (the accessibility score of `npm run lighthouse` is its
 * rules), resolved from there.
 */
const fromLighthouse = createRequire(createRequire(import.meta.url).resolve("lighthouse"));
const AXE_SOURCE = fs.readFileSync(fromLighthouse.resolve("axe-core/axe.min.js"), "utf8");

test("public pages: every text has the contrast WCAG AA asks for (axe-core color-contrast)", async ({ page, jsEnabled }) => {
  // The colours are the stylesheet's, the same with scripts off; axe-core itself waits on the
  // page's timers, which do not run when the browser's scripts are off.
  test.skip(!jsEnabled, "axe-core needs the page's timers");
  // Sections fade in as they scroll into view: with reduced motion they are drawn at once, so
  // the colours measured are the settled ones, not a frame of the fade.
  await page.emulateMedia({ reducedMotion: "reduce" });
  const problems: string[] = [];
  for (const path of PAGES) {
    await page.goto(path);
    await page.evaluate(AXE_SOURCE);
    const found = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: { nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe;
      const result = await axe.run(document, { runOnly: { type: "rule", values: ["color-contrast"] }, resultTypes: ["violations"] });
      return result.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(" ")}: ${(n.failureSummary ?? "").split("\n").slice(1).join(" ").trim()}`));
    });
    for (const p of found) problems.push(`${path}: ${p}`);
  }
  expect(problems).toEqual([]);
});
