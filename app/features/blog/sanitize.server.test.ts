import { describe, expect, it } from "vitest";
import { sanitizePostHtml } from "./sanitize.server";

/** Every tag name in a piece of HTML, lower-cased. */
const tags = (html: string) => [...html.matchAll(/<([a-z][a-z0-9-]*)/gi)].map((m) => m[1]!.toLowerCase());
/** Every attribute name in a piece of HTML, lower-cased. */
const attributes = (html: string) => [...html.matchAll(/\s([a-z-]+)=/gi)].map((m) => m[1]!.toLowerCase());

describe("sanitizePostHtml: what is removed", () => {
  it("removes script and style elements with their content", () => {
    const out = sanitizePostHtml(`<p>before</p><script>alert("x")</script><style>p{color:red}</style><p>after</p>`);
    expect(out).toBe("<p>before</p><p>after</p>");
  });

  it("removes iframes, objects, embeds, forms, base, meta and link", () => {
    const out = sanitizePostHtml(
      `<iframe src="https://evil.example/"></iframe><object data="x.swf"></object><embed src="x.swf">` +
        `<form action="https://evil.example/"><input name="a"><button>Go</button></form>` +
        `<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example/"><link rel="stylesheet" href="x.css"><p>kept</p>`,
    );
    expect(tags(out)).toEqual(["p"]);
    expect(out).not.toMatch(/evil|iframe|object|embed|form|base|meta|link/i);
  });

  it("removes every on* event handler and style, class and id attributes", () => {
    const out = sanitizePostHtml(
      `<p onclick="steal()" onmouseover="x()" style="position:fixed" class="c" id="i">hi</p><img src="/images/a.webp" onerror="alert(1)" onload="alert(2)">`,
    );
    expect(out).toBe(`<p>hi</p><img src="/images/a.webp" loading="lazy" />`);
    expect(attributes(out).filter((a) => a.startsWith("on"))).toEqual([]);
  });

  it("strips javascript: links, including entity-encoded, spaced and upper-case forms", () => {
    for (const href of ["javascript:alert(1)", "jav&#x61;script:alert(1)", " JAVASCRIPT:alert(1)", "java\tscript:alert(1)", "&#106;avascript:alert(1)"]) {
      const out = sanitizePostHtml(`<a href="${href}">x</a>`);
      expect(out, href).toBe("<a>x</a>");
    }
  });

  it("strips data: URLs on links and images, and protocol-relative and http images", () => {
    const out = sanitizePostHtml(
      `<a href="data:text/html,<script>alert(1)</script>">a</a><img src="data:image/svg+xml;base64,PHN2Zz4="><img src="//evil.example/x.png"><img src="http://plain.example/x.png"><a href="//evil.example/">b</a>`,
    );
    expect(out).not.toMatch(/data:|evil|plain\.example|src=|href=/);
    expect(out).toContain("<a>a</a>");
    expect(out).toContain("<a>b</a>");
  });

  it("removes svg and math with their attributes (their text alone survives, inert)", () => {
    const out = sanitizePostHtml(`<svg onload="alert(1)"><script>alert(2)</script><circle r="1"/></svg><math><mi>x</mi></math><p>ok</p>`);
    expect(tags(out)).toEqual(["p"]);
    expect(out).not.toMatch(/alert|onload/);
  });

  it("the unsafe sample from the staff checklist is left harmless", () => {
    const out = sanitizePostHtml(`<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>`);
    expect(out).toBe(`<img src="x" loading="lazy" /><a>x</a>`);
  });
});

describe("sanitizePostHtml: what is kept", () => {
  it("keeps the text structure staff write, with h1 turned into h2 (the page's title is the h1)", () => {
    const html =
      "<h2>Section</h2><h3>Sub</h3><p>A <strong>bold</strong>, <em>soft</em>, <u>u</u>, <s>s</s>, <mark>m</mark> line.<br>Next.</p>" +
      "<blockquote>Quote</blockquote><ul><li>One</li></ul><ol><li>Two</li></ol><hr>" +
      "<figure><img src=\"https://images.example/a.jpg\" alt=\"A walk\" width=\"600\" height=\"400\"><figcaption>Caption</figcaption></figure>" +
      "<pre><code>x &lt; y</code></pre><table><thead><tr><th scope=\"col\">H</th></tr></thead><tbody><tr><td>D</td></tr></tbody></table>";
    const out = sanitizePostHtml(`<h1>Title</h1>${html}`);
    expect(out).toBe(
      "<h2>Title</h2>" +
        html
          .replace("<br>", "<br />")
          .replace("<hr>", "<hr />")
          .replace('height="400">', 'height="400" loading="lazy" />'),
    );
  });

  it("keeps site links as they are and mailto links", () => {
    expect(sanitizePostHtml(`<a href="/join" title="Join">join</a> <a href="mailto:hello@example.org">mail</a>`)).toBe(
      `<a href="/join" title="Join">join</a> <a href="mailto:hello@example.org">mail</a>`,
    );
  });

  it("gives external links rel noopener noreferrer and target _blank, whatever was written", () => {
    const out = sanitizePostHtml(
      `<a href="https://www.linkedin.com/x" rel="opener" target="_self">in</a><a href="http://example.org">ex</a>`,
    );
    const links = [...out.matchAll(/<a ([^>]*)>/g)].map((m) => m[1]!);
    expect(links).toHaveLength(2);
    for (const attrs of links) {
      expect(attrs).toContain('rel="noopener noreferrer"');
      expect(attrs).toContain('target="_blank"');
      expect(attrs.match(/\b(rel|target)=/g)).toHaveLength(2);
    }
    expect(out).toContain('href="https://www.linkedin.com/x"');
  });

  it("images load lazily", () => {
    expect(sanitizePostHtml(`<img src="/images/blog/a.webp" alt="">`)).toBe(`<img src="/images/blog/a.webp" alt="" loading="lazy" />`);
  });

  it("is stable: sanitising twice changes nothing (posts are sanitised when saved and when shown)", () => {
    const once = sanitizePostHtml(`<p onclick="x">a</p><a href="https://e.org">b</a><img src="/i.webp"><script>1</script>`);
    expect(sanitizePostHtml(once)).toBe(once);
  });
});
