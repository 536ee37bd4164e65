import { hydrated } from "../support/e2e-fixtures";
import { BASE_URL } from "../support/e2e-env";
import {
  addPosts,
  EMBED_HINT,
  expect,
  LINK_COPIED,
  ownPostFor,
  postUrl,
  removePosts,
  SEEDED,
  seeded,
  test,
  uniqueId,
} from "../support/e2e-blog";

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("/blogs lists the posts as cards; 'Read on site' opens one", async ({ page, request, jsEnabled }) => {
  const res = await page.goto("/blogs");
  expect(res?.status()).toBe(200);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Stories from the street");

  const cards = main.getByRole("article");
  // The seeded posts come first, in the blog's order (tests may have added posts after them).
  const titles = await cards.getByRole("heading", { level: 2 }).allTextContents();
  expect(titles.slice(0, SEEDED.length)).toEqual(SEEDED.map((p) => p.title));

  for (const post of SEEDED) {
    const card = cards.filter({ has: page.getByRole("heading", { name: post.title, exact: true }) });
    await expect(card).toHaveCount(1);
    const cover = card.locator("img").first();
    await expect(cover).toHaveAttribute("src", post.image);
    const image = await request.get(post.image);
    expect(image.status(), post.image).toBe(200);
    expect(image.headers()["content-type"], post.image).toMatch(/^image\//);
    await expect(card.getByRole("link", { name: post.title, exact: true })).toHaveAttribute("href", `/blogs/${post.slug}`);
    await expect(card.getByText(post.summary, { exact: true })).toBeVisible();
    await expect(card.getByText(post.author, { exact: true })).toBeVisible();
    await expect(card.locator("time")).toHaveText(post.shownDate);
    await expect(card.locator("time")).toHaveAttribute("datetime", post.date);
    await expect(card.getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveText(post.tags);
    // Named for the post (its title is hidden text), so each card's link says where it goes.
    const readOnSite = card.getByRole("link", { name: /^Read on site/ });
    await expect(readOnSite).toHaveAccessibleName(new RegExp(`^Read on site\\s*:\\s*${escapeRegExp(post.title)}$`));
    await expect(readOnSite).toHaveAttribute("href", `/blogs/${post.slug}`);
    const linkedIn = card.getByRole("link", { name: /^Read on LinkedIn/ });
    await expect(linkedIn).toHaveAttribute("href", post.url);
    await expect(linkedIn).toHaveAttribute("target", "_blank");
    await expect(linkedIn).toHaveAttribute("rel", /noopener/);
  }

  const first = SEEDED[0]!;
  const read = cards.filter({ has: page.getByRole("heading", { name: first.title, exact: true }) }).getByRole("link", { name: /^Read on site/ });
  if (jsEnabled) await hydrated(read);
  await read.click();
  await expect(page).toHaveURL(postUrl(first.slug));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(first.title);
});

test("a post with its own HTML: header, summary, body, share links, related posts, structured data", async ({
  page,
  jsEnabled,
  problems,
}) => {
  const post = seeded("campus-mission-week");
  const res = await page.goto(`/blogs/${post.slug}`);
  expect(res?.status()).toBe(200);
  await expect(page).toHaveTitle(new RegExp(`^${escapeRegExp(post.title)}`));
  const article = page.getByRole("main").getByRole("article");
  await expect(article.getByRole("heading", { level: 1 })).toHaveText(post.title);
  await expect(article.getByRole("link", { name: "All posts" })).toHaveAttribute("href", "/blogs");
  await expect(article.locator("img.post-cover")).toHaveAttribute("src", post.image);
  await expect(article.locator(".post-byline")).toHaveText(`${post.author} · ${post.shownDate}`);
  await expect(article.getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveText(post.tags);
  await expect(article.locator(".post-summary")).toHaveText(post.summary);

  // The body is the post's HTML.
  const body = article.locator(".post-content");
  await expect(body.getByRole("heading", { level: 2, name: "Three things that worked" })).toBeVisible();
  await expect(body.getByRole("listitem")).toHaveCount(3);
  await expect(body.getByRole("link", { name: "campus ministry" })).toHaveAttribute("href", "/ministry");
  await expect(article.getByText(EMBED_HINT)).toHaveCount(0);
  await expect(article.locator("iframe")).toHaveCount(0);

  // Sharing without script: WhatsApp, X and Facebook links carry the post's address.
  const encoded = encodeURIComponent(postUrl(post.slug));
  await expect(article.getByRole("link", { name: /^WhatsApp/ })).toHaveAttribute("href", new RegExp(`^https://wa\\.me/\\?text=.*${encoded.replace(/\./g, "\\.")}$`));
  await expect(article.getByRole("link", { name: /^X \(Twitter\)/ })).toHaveAttribute("href", new RegExp(`^https://twitter\\.com/intent/tweet\\?url=${encoded.replace(/\./g, "\\.")}`));
  await expect(article.getByRole("link", { name: /^Facebook/ })).toHaveAttribute("href", `https://www.facebook.com/sharer/sharer.php?u=${encoded}`);

  // Related posts: none of the seeded posts shares a tag with this one.
  await expect(page.getByRole("region", { name: "Related posts" })).toHaveCount(0);

  // Structured data and link-preview tags.
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "null");
  expect(ld).toMatchObject({
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: post.title,
    description: post.summary,
    author: { "@type": "Person", name: post.author },
    datePublished: post.date,
    image: `${BASE_URL}${post.image}`,
    url: postUrl(post.slug),
    keywords: post.tags.join(", "),
  });
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", new RegExp(`^${post.title.slice(0, 20)}`));
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", `${BASE_URL}${post.image}`);

  if (jsEnabled) {
    // A post without audio or an embed: nothing goes wrong, and no video player is loaded.
    await hydrated(article.getByRole("button", { name: "Copy link" }));
    await page.waitForLoadState("networkidle");
    expect(problems.pageErrors, "uncaught errors").toEqual([]);
    expect(problems.console, "console errors").toEqual([]);
    expect(await problems.csp(), "CSP violations").toEqual([]);
    await expect(page.locator('script[src*="youtube"], iframe[src*="youtube"]')).toHaveCount(0);
  }
});

test("related posts: up to three other posts sharing tags, most shared first", async ({ page, request }, info) => {
  // Five posts of this test's own: tags unique to this test, so nothing else joins in.
  const id = uniqueId(info);
  const [a, b] = [`ra-${id}`, `rb-${id}`];
  const make = (kind: string, tags: string[], date: string) => ownPostFor(info, `rel-${kind}`, { tags, date, title: `Related ${kind} ${id}` });
  const main = make("main", [a, b], "2025-05-01");
  const both = make("both", [a, b], "2024-01-01"); // two shared tags: first, although oldest
  const newer = make("newer", [a], "2025-04-01");
  const older = make("older", [a], "2025-03-01");
  const oldest = make("oldest", [a], "2025-02-01"); // the fourth match: left out
  const none = make("none", [`rc-${id}`], "2025-06-01");
  const mine = [main, both, newer, older, oldest, none];
  await addPosts(request, mine);
  try {
    await page.goto(`/blogs/${main.slug}`);
    const related = page.getByRole("region", { name: "Related posts" });
    const links = related.getByRole("heading", { level: 3 }).getByRole("link");
    await expect(links).toHaveText([both.title, newer.title, older.title]);
    for (const [i, p] of [both, newer, older].entries()) await expect(links.nth(i)).toHaveAttribute("href", `/blogs/${p.slug}`);

    // A seeded post's related posts link to the other seeded posts it shares tags with.
    await page.goto("/blogs/friday-night-on-the-walk");
    const seededLinks = page.getByRole("region", { name: "Related posts" }).getByRole("heading", { level: 3 }).getByRole("link");
    await expect(seededLinks).toHaveText([seeded("building-the-badge-kit").title]);
    await seededLinks.first().click();
    await expect(page).toHaveURL(postUrl("building-the-badge-kit"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(seeded("building-the-badge-kit").title);
  } finally {
    await removePosts(request, mine.map((p) => p.slug));
  }
});

test("a post without HTML shows the LinkedIn original in a frame, the hint and 'Read on LinkedIn'", async ({ page }) => {
  const post = seeded("why-six-hours-a-week");
  const res = await page.goto(`/blogs/${post.slug}`);
  expect(res?.status()).toBe(200);
  const article = page.getByRole("main").getByRole("article");
  await expect(article.getByRole("heading", { level: 1 })).toHaveText(post.title);
  await expect(article.locator(".post-summary")).toHaveText(post.summary);
  await expect(article.locator(".post-content")).toHaveCount(0);
  const frame = article.locator("iframe");
  await expect(frame).toHaveAttribute("src", post.url);
  await expect(frame).toHaveAttribute("title", `Original article: ${post.title}`);
  await expect(article.getByText(EMBED_HINT, { exact: true })).toBeVisible();
  const linkedIn = article.getByRole("link", { name: /^Read on LinkedIn/ });
  await expect(linkedIn).toHaveAttribute("href", post.url);
  await expect(linkedIn).toHaveAttribute("target", "_blank");
  // The page's policy lets this one site be framed.
  expect(res?.headers()["content-security-policy"]).toMatch(/frame-src[^;]*https:\/\/www\.linkedin\.com/);

  const related = page.getByRole("region", { name: "Related posts" }).getByRole("heading", { level: 3 }).getByRole("link");
  await expect(related).toHaveText([seeded("building-the-badge-kit").title]);
});

test("an unknown post answers 404 'Article not found' with a way back to /blogs", async ({ page, jsEnabled }) => {
  const res = await page.goto("/blogs/no-such-post-here");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Article not found");
  await expect(page).toHaveTitle(/^Article not found/);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  const back = page.getByRole("link", { name: /Back to all posts/ });
  await expect(back).toHaveAttribute("href", "/blogs");
  if (jsEnabled) await hydrated(back);
  await back.click();
  await expect(page).toHaveURL(`${BASE_URL}/blogs`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stories from the street");
});

test("share page /share/blogs/{slug}.html: link-preview tags, then on to the post with ?src=share", async ({ page, request }) => {
  const post = seeded("friday-night-on-the-walk");
  const sharePath = `/share/blogs/${post.slug}.html`;
  const res = await request.get(sharePath);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^text\/html/);
  const html = await res.text();
  const meta = (property: string) =>
    new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"`).exec(html)?.[1]?.replace(/&#39;|&#x27;/g, "'");
  expect(meta("og:type")).toBe("article");
  expect(meta("og:title")).toBe(post.title);
  expect(meta("og:description")).toBe(post.summary);
  expect(meta("og:image")).toBe(`${BASE_URL}${post.image}`);
  expect(meta("og:url")).toBe(`${BASE_URL}${sharePath}`);
  expect(meta("twitter:card")).toBe("summary_large_image");
  expect(html).toContain(`<meta http-equiv="refresh" content="0; url=/blogs/${post.slug}?src=share">`);
  expect(html).toContain(`href="/blogs/${post.slug}?src=share"`);

  // A visitor lands on the post (the refresh needs no script).
  await page.goto(sharePath);
  await expect(page).toHaveURL(`${postUrl(post.slug)}?src=share`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(post.title);

  const missing = await request.get("/share/blogs/no-such-post.html");
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain("Article not found");
});

test("feeds: /blogs/rss.xml lists the posts; /sitemap.xml and /robots.txt answer", async ({ request }) => {
  const rss = await request.get("/blogs/rss.xml");
  expect(rss.status()).toBe(200);
  expect(rss.headers()["content-type"]).toMatch(/^application\/rss\+xml/);
  const xml = await rss.text();
  expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\s*<rss version="2\.0"/);
  const items = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]!);
  const links = items.map((i) => /<link>([^<]*)<\/link>/.exec(i)?.[1]);
  expect(links.slice(0, SEEDED.length)).toEqual(SEEDED.map((p) => postUrl(p.slug)));
  const friday = items[0]!;
  expect(friday).toContain(`<title>${SEEDED[0]!.title}</title>`);
  expect(friday).toContain("<pubDate>Fri, 17 Oct 2025 00:00:00 GMT</pubDate>");
  expect(friday).toContain(`<dc:creator>${SEEDED[0]!.author}</dc:creator>`);

  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.status()).toBe(200);
  expect(sitemap.headers()["content-type"]).toMatch(/xml/);
  const locs = [...(await sitemap.text()).matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
  expect(locs).toContain(`${BASE_URL}/`);
  expect(locs).toContain(`${BASE_URL}/blogs`);
  for (const p of SEEDED) expect(locs).toContain(postUrl(p.slug));
  expect(locs.some((l) => l!.includes("/admin"))).toBe(false);

  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(robots.headers()["content-type"]).toMatch(/^text\/plain/);
  const lines = (await robots.text()).split("\n");
  expect(lines).toContain("User-agent: *");
  expect(lines).toContain("Disallow: /blogs/admin");
  expect(lines).toContain(`Sitemap: ${BASE_URL}/sitemap.xml`);
});

test("reading progress and 'Copy link' (with JavaScript; hidden without it)", async ({ page, context, jsEnabled }) => {
  const post = seeded("campus-mission-week");
  await page.goto(`/blogs/${post.slug}`);
  const progress = page.getByRole("progressbar", { name: "Reading progress" });
  const copy = page.getByRole("button", { name: "Copy link" });
  const share = page.getByRole("button", { name: "Share…" });
  if (!jsEnabled) {
    // Without script neither can work, so neither shows.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(post.title);
    await expect(progress).toBeHidden();
    await expect(copy).toBeHidden();
    await expect(share).toBeHidden();
    return;
  }

  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute("aria-valuenow", "0");
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(progress).toHaveAttribute("aria-valuenow", "100");
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(progress).toHaveAttribute("aria-valuenow", "0");

  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await hydrated(copy);
  await copy.click();
  const status = page.locator(".share-bar").getByRole("status");
  await expect(status).toHaveText(LINK_COPIED);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(postUrl(post.slug));
});

test("'Share…' opens the device share sheet with the post; cancelling it is silent (JS on)", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "the share sheet needs JavaScript");
  await page.addInitScript(() => {
    const w = window as unknown as { __shared: unknown[]; __cancel: boolean };
    w.__shared = [];
    w.__cancel = false;
    Object.defineProperty(navigator, "share", {
      configurable: true,
      value: async (data: unknown) => {
        w.__shared.push(data);
        if (w.__cancel) throw new DOMException("cancelled", "AbortError");
      },
    });
  });
  const post = seeded("campus-mission-week");
  await page.goto(`/blogs/${post.slug}`);
  const share = page.getByRole("button", { name: "Share…" });
  await hydrated(share);
  await share.click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __shared: unknown[] }).__shared)).toEqual([
    { title: post.title, text: post.title, url: postUrl(post.slug) },
  ]);
  // The status line stays empty (and so hidden).
  const status = page.locator('.share-bar [role="status"]');
  await expect(status).toHaveText("");

  await page.evaluate(() => ((window as unknown as { __cancel: boolean }).__cancel = true));
  await share.click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __shared: unknown[] }).__shared.length)).toBe(2);
  await expect(status).toHaveText("");
});
