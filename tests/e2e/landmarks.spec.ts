import type { Page } from "@playwright/test";
import { signInTo } from "../support/e2e-badges";
import { expect, test } from "../support/e2e-fixtures";

/**
 * What an HTML validator (html-validate's unique-landmark and aria-label-misuse) found: landmarks
 * of one kind that share a name (or have none), and aria-label on elements that cannot carry it
 * (a list, a paragraph, a plain box). Checked in the page as the browser built it.
 */
function landmarkProblems(page: Page) {
  return page.evaluate(() => {
    const problems: string[] = [];
    const nameOf = (el: Element) => {
      const label = el.getAttribute("aria-label");
      if (label) return label.trim();
      const by = el.getAttribute("aria-labelledby");
      if (by) return by.split(/\s+/).map((id) => document.getElementById(id)?.textContent?.trim() ?? "").join(" ").trim();
      return "";
    };
    const roleOf = (el: Element): string | null => {
      const role = el.getAttribute("role");
      if (role) return ["navigation", "region", "complementary", "search", "form", "main", "banner", "contentinfo"].includes(role) ? role : null;
      const tag = el.tagName.toLowerCase();
      if (tag === "nav") return "navigation";
      if (tag === "aside") return "complementary";
      if (tag === "main") return "main";
      if (tag === "section") return nameOf(el) ? "region" : null;
      if (tag === "form") return nameOf(el) ? "form" : null;
      if (tag === "header" || tag === "footer") return el.parentElement?.closest("article, aside, main, nav, section") ? null : tag === "header" ? "banner" : "contentinfo";
      return null;
    };
    const seen = new Map<string, Element[]>();
    for (const el of document.querySelectorAll("body *")) {
      const role = roleOf(el);
      if (role) seen.set(role, [...(seen.get(role) ?? []), el]);
      const label = el.getAttribute("aria-label");
      const tag = el.tagName.toLowerCase();
      if (label !== null && !el.hasAttribute("role") && !el.hasAttribute("tabindex") && ["ul", "ol", "li", "p", "span", "div", "dl", "dd", "dt", "strong", "em"].includes(tag)) {
        problems.push(`aria-label on <${tag}>: '${label}'`);
      }
    }
    for (const [role, els] of seen) {
      if (els.length < 2) continue;
      const names = els.map(nameOf);
      if (names.some((n) => !n)) problems.push(`${els.length} ${role} landmarks, one without a name`);
      const repeated = names.filter((n, i) => n && names.indexOf(n) !== i);
      for (const n of new Set(repeated)) problems.push(`${role} landmarks named '${n}' more than once`);
    }
    return problems;
  });
}

const PUBLIC = ["/", "/about", "/join", "/vespers", "/event", "/event?tier=t2", "/badges", "/badges/verify", "/merchandise", "/merchandise?item=street-light-hoodie", "/blogs", "/blogs/campus-mission-week"];

test("public pages: every landmark of a kind has a name of its own; no aria-label where it cannot be", async ({ page }) => {
  const problems: string[] = [];
  for (const path of PUBLIC) {
    await page.goto(path);
    for (const p of await landmarkProblems(page)) problems.push(`${path}: ${p}`);
  }
  expect(problems).toEqual([]);
});

test("staff screens with figures and polls: the same", async ({ page, jsEnabled }) => {
  await signInTo(page, "/admin/activity", jsEnabled);
  const problems: string[] = [];
  for (const path of ["/admin/activity", "/admin/engagement", "/admin"]) {
    await page.goto(path);
    for (const p of await landmarkProblems(page)) problems.push(`${path}: ${p}`);
  }
  expect(problems).toEqual([]);
});
