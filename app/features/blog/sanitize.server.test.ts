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

  it("removes frames other than YouTube and Vimeo videos, objects, embeds, forms, base, meta and link", () => {
    const out = sanitizePostHtml(
      `<iframe src="https://evil.example/"></iframe><object data="x.swf"></object><embed src="x.swf">` +
        `<form action="https://evil.example/"><input name="a"><button>Go</button></form>` +
        `<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example/"><link rel="stylesheet" href="x.css"><p>kept</p>`,
    );
    expect(tags(out)).toEqual(["p"]);
    expect(out).not.toMatch(/evil|iframe|object|embed|form|base|meta|link/i);
  });

  it("removes every on* event handler, class and id attributes, and styles outside the formatting list", () => {
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

describe("sanitizePostHtml: the old posts' formatting", () => {
  it("keeps bold, italics, underline, alignment and colour in style, and div, section and span wrappers", () => {
    const out = sanitizePostHtml(
      `<section style="text-align:center"><div style="color:#b91c1c;position:fixed;background-image:url(https://evil.example/x)"><span style="font-weight:bold">Bold</span> <span style="font-style:italic;text-decoration:underline">soft</span> <p style="color:rgb(10, 20, 30);text-align:justify">p</p></div></section>`,
    );
    expect(out).toBe(
      `<section style="text-align:center"><div style="color:#b91c1c"><span style="font-weight:bold">Bold</span> <span style="font-style:italic;text-decoration:underline">soft</span> <p style="color:rgb(10, 20, 30);text-align:justify">p</p></div></section>`,
    );
    expect(out).not.toMatch(/position|evil|url\(/);
  });

  it("a style with nothing on the list is dropped whole; expressions and urls never pass", () => {
    expect(sanitizePostHtml(`<p style="color:expression(alert(1))">a</p><p style="color:url(javascript:x)">b</p>`)).toBe("<p>a</p><p>b</p>");
  });

  it("YouTube and Vimeo videos become privacy-friendly players in a sandboxed frame; their handlers and other attributes go", () => {
    const out = sanitizePostHtml(
      `<iframe width="560" height="315" src="https://www.youtube.com/embed/aJeNUlNY7Iw?si=abc&autoplay=1" onload="steal()" allow="camera; microphone" frameborder="0"></iframe>` +
        `<iframe src="https://youtu.be/aJeNUlNY7Iw"></iframe><iframe src="https://vimeo.com/76979871"></iframe><iframe src="https://player.vimeo.com/video/76979871?h=x"></iframe>`,
    );
    const frames = [...out.matchAll(/<iframe ([^>]*)><\/iframe>/g)].map((m) => m[1]!);
    expect(frames).toHaveLength(4);
    expect(frames.map((f) => /src="([^"]+)"/.exec(f)![1])).toEqual([
      "https://www.youtube-nocookie.com/embed/aJeNUlNY7Iw",
      "https://www.youtube-nocookie.com/embed/aJeNUlNY7Iw",
      "https://player.vimeo.com/video/76979871?dnt=1",
      "https://player.vimeo.com/video/76979871?dnt=1",
    ]);
    for (const f of frames) {
      expect(f).toContain('sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"');
      expect(f).toContain('loading="lazy"');
      expect(f).not.toMatch(/onload|camera|frameborder|autoplay/);
    }
    expect(sanitizePostHtml(out)).toBe(out);
  });

  it("any other frame is dropped whole, even one that names YouTube in its path", () => {
    const out = sanitizePostHtml(
      `<iframe src="https://evil.example/embed/aJeNUlNY7Iw"></iframe><iframe src="javascript:alert(1)"></iframe><iframe src="https://evil.example/?v=https://www.youtube.com/embed/x"></iframe><iframe src="data:text/html,x"></iframe><iframe></iframe><p>kept</p>`,
    );
    expect(out).toBe("<p>kept</p>");
  });
});
