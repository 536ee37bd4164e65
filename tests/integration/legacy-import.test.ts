import path from "node:path";
import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, UNSAFE_withComponentProps as withComponentProps } from "react-router";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { flushAnalytics } from "~/features/analytics/analytics.server";
import { importLegacySite, type ImportReport } from "~/features/legacy-import/legacy-import.server";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import type { Db } from "~/lib/db/db.server";
import * as activityApi from "~/routes/api/activity";
import * as analyticsApi from "~/routes/api/analytics";
import * as blogsApi from "~/routes/api/blogs";
import * as blogsData from "~/routes/api/blogs-data";
import * as legacyData from "~/routes/api/legacy-data";
import * as merchData from "~/routes/api/merch-data";
import * as pollsApi from "~/routes/api/polls";
import * as reactionsApi from "~/routes/api/reactions";
import * as seriesApi from "~/routes/api/series";
import * as seriesData from "~/routes/api/series-data";
import * as shareApi from "~/routes/api/generate-badge-share";
import * as subscribersApi from "~/routes/api/subscribers";
import * as trackApi from "~/routes/api/track";
import * as activityPage from "~/routes/admin/activity";
import * as badgeOrdersPage from "~/routes/admin/badge-orders";
import * as merchOrdersPage from "~/routes/admin/merch-orders";
import * as importsPage from "~/routes/admin/imports";
import * as lookupPage from "~/routes/orders/lookup";
import * as oldLinks from "~/routes/site/old-links";
import { OLD_LINKS } from "~/routes/site/old-links";
import * as extraFile from "~/routes/share/extra-file";
import * as homePage from "~/routes/site/home";
import * as vespersPage from "~/routes/site/vespers";
import * as privacyPage from "~/routes/site/privacy";
import * as adminHome from "~/routes/admin/index";
import * as badgeApi from "~/routes/api/badge-orders";
import * as merchApi from "~/routes/api/merch-orders";
import { setBadgeOrderStatus } from "~/features/event-badges/badge-orders.server";
import { staff as staffOf } from "~/lib/core/actor";
import * as assertionRoute from "~/routes/badges/open-badges-assertion";
import * as badgeImage from "~/routes/badges/badge-image";
import * as badgesPage from "~/routes/badges/badges";
import * as postPage from "~/routes/blog/post";
import * as seriesPage from "~/routes/blog/series";
import * as eventPage from "~/routes/event/event";
import * as storePage from "~/routes/merch/store";
import * as badgeShare from "~/routes/share/badge-share";
import * as blogShare from "~/routes/share/blog-share";
import * as merchShare from "~/routes/share/merch-share";
import * as merchRedirect from "~/routes/site/merch-redirect";
import { runSeeds } from "../../db/seed";
import { args, formPost, get, jsonPost, readJson, testContext, thrown } from "../support/http";
import { buildLegacySite, CODES, LONG_GROUP_NAME, LONG_SUMMARY, LONG_TITLE, MANY_TAGS, OLD_BADGES, type LegacySite } from "../support/legacy-site";
import { freshApp, testDatabaseKind } from "../support/reset";

// The old site moved in: its folder built from the legacy doc's shapes, dry-run, imported twice,
// then everything people and staff reach checked through the routes, as a browser or the old
// client would ask. Runs on SQLite and on PostgreSQL (TEST_DATABASES).
const KEY = "test-admin-key-0123456789";
const ADMIN = { "X-Admin-Key": KEY };
let db: Db;
let site: LegacySite;
let cookie: string;
let dry: ImportReport;
let first: ImportReport;
let second: ImportReport;
let before: Record<string, number>;
let afterDry: Record<string, number>;

const TABLES = ["blog_posts", "blog_series", "merch_items", "badge_orders", "merch_orders", "payment_codes", "subscribers", "blog_reactions", "poll_votes", "analytics_events", "activity", "team_badges", "legacy_imports"] as const;
async function counts() {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = Number((await db.selectFrom(t).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  return out;
}
const byFile = (r: ImportReport, file: string) => {
  const f = r.files.find((x) => x.file === file);
  if (!f) throw new Error(`no report for ${file}: ${r.files.map((x) => x.file).join(", ")}`);
  return f;
};
const staff = () => ({ Cookie: cookie });
const staffActor = staffOf("10.0.0.42");

type RouteComponent = Parameters<typeof withComponentProps>[0];
/** A page as a browser without JavaScript gets it, as HTML. */
async function pageHtml(mod: { loader: unknown; default: unknown }, path: string, url: string) {
  const handler = createStaticHandler([{ id: "page", path, loader: mod.loader as never, Component: withComponentProps(mod.default as RouteComponent) as ComponentType }]);
  const context = await handler.query(get(url), { requestContext: testContext("10.0.0.42") });
  if (context instanceof Response) throw new Error(`expected a page, got ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false }));
}

/** A staff screen as a browser without JavaScript gets it, as text. */
async function screenText(mod: { loader: unknown; default: unknown }, path: string, url: string) {
  const handler = createStaticHandler([{ id: "screen", path, loader: mod.loader as never, Component: withComponentProps(mod.default as RouteComponent) as ComponentType }]);
  const context = await handler.query(get(url, staff()), { requestContext: testContext("10.0.0.42") });
  if (context instanceof Response) throw new Error(`expected a page, got ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false }));
  return html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/\s+/g, " ");
}

beforeAll(async () => {
  db = await freshApp({ ADMIN_KEY: KEY, SMTP_URL: undefined });
  // The site has run before: its seeds (the demo team badges among them) are in.
  await runSeeds(db);
  site = await buildLegacySite(path.join(process.env.DATA_DIR!, "old-site", "public"));
  before = await counts();
  dry = await importLegacySite(db, site.dir, { dryRun: true });
  afterDry = await counts();
  first = await importLegacySite(db, site.dir);
  // The command takes the repository's root as well as its public/ folder.
  second = await importLegacySite(db, path.dirname(site.dir));
  cookie = (await createAdminSessionCookie(db, get("/admin"))).split(";")[0]!;
}, 120_000);

describe(`importing the old site (${testDatabaseKind})`, () => {
  it("dry run: per file, what would be added, skipped and refused (with the line and why); nothing written", () => {
    expect(afterDry).toEqual(before);
    for (const [file, n] of Object.entries(site.expectAdded)) expect(byFile(dry, file).added, file).toBe(n);
    for (const [file, lines] of Object.entries(site.refusedLines)) {
      const refused = byFile(dry, file).refused.map((r) => r.line);
      for (const line of lines) expect(refused, `${file} line ${line}`).toContain(line);
    }
    for (const [file, lines] of Object.entries(site.reviewLines)) expect(byFile(dry, file).review.map((r) => r.line), file).toEqual(lines);
    // Orders the old site took and today's rules refuse are imported for review, never only printed.
    expect(byFile(dry, "data/badge_orders.json").refused).toEqual([]);
    expect(byFile(dry, "data/badge_orders.json").review.map((r) => r.reason)).toEqual([
      expect.stringContaining('"not-an-email" is not an email address'),
      expect.stringContaining('unknown tier "t9"'),
      expect.stringContaining('"paid cash at the table" is not an M-Pesa code'),
      expect.stringContaining(`"${CODES.short}" is not an M-Pesa code`),
      expect.stringContaining("the name is 92 characters"),
    ]);
    expect(byFile(dry, "data/merch_orders.jsonl").refused).toEqual([{ line: 3, reason: expect.stringMatching(/^not valid JSON/), raw: expect.stringContaining('"customerName": "Cut off') }]);
    expect(byFile(dry, "data/merch_orders.jsonl").review.map((r) => r.reason)).toEqual([expect.stringContaining("item 1 has the quantity -2"), expect.stringContaining('"nelson@gmail" is not an email address')]);
    expect(byFile(dry, "data/blogs.json").skipped).toBe(1);
    // The dry run says which demo posts and items of the seed would leave.
    expect(byFile(dry, "data/blogs.json").notes).toContain("4 demo posts of the seed removed (never changed by staff): friday-night-on-the-walk, campus-mission-week, why-six-hours-a-week, building-the-badge-kit");
    expect(byFile(dry, "data/merch.json").notes).toEqual([expect.stringMatching(/^6 demo items of the seed removed \(never changed by staff, never ordered\): street-light-hoodie, /)]);
  });

  it("the import adds what the dry run said; a second run adds nothing", () => {
    expect(first.files.map((f) => [f.file, f.added, f.refused.length])).toEqual(dry.files.map((f) => [f.file, f.added, f.refused.length]));
    expect(first.added).toBeGreaterThan(60);
    expect(second.added).toBe(0);
    expect(second.refused).toBe(first.refused);
    expect(second.skipped).toBe(first.skipped + first.added);
  });

  it("the nine badges keep their ids: /badges?id=, the share page, the picture, the share file call and the assertion answer", async () => {
    for (const b of OLD_BADGES) {
      const page = await badgesPage.loader(args(get(`/badges?id=${b.id}`)));
      expect(page.selected?.badge).toMatchObject({ id: b.id, title: b.title, subtitle: b.subtitle, ownerName: b.ownerName, earned: true });
      expect(page.verify).toMatchObject({ status: "valid" });

      const share = await badgeShare.loader({ ...args(get(`/share/${b.id}.html`)), params: { file: `${b.id}.html` } });
      expect(share.status).toBe(200);
      expect(await share.text()).toContain(`/badges?id=${b.id}`);

      const picture = await badgeImage.loader({ ...args(get(`/open/badges/${b.id}.png`)), params: { file: `${b.id}.png` } });
      expect(picture.status).toBe(200);
      expect(picture.headers.get("content-type")).toBe("image/png");
      expect(await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).toMatchObject({ width: 1080, height: 1080, format: "png" });

      const generated = await shareApi.action(args(jsonPost("/api/generate_badge_share.php", { id: b.id, title: b.title }, ADMIN)));
      expect(generated.status).toBe(200);

      const assertion = await assertionRoute.loader({ ...args(get(`/badges/assertions/${b.id}.json`)), params: { file: `${b.id}.json` } });
      expect(assertion.status).toBe(200);
      expect(await assertion.json()).toMatchObject({ type: "Assertion", badge: expect.stringContaining(b.id) });
    }
    // The seed's demo badges are gone; b5692 (a demo id too) is the old site's badge now.
    const all = await badgesPage.loader(args(get("/badges?won=0")));
    expect(all.badges.map((b) => b.id).sort()).toEqual(OLD_BADGES.map((b) => b.id).sort());
    expect(all.badges.find((b) => b.id === "b5692")?.ownerName).toBe("Daudi Otieno");
    expect(all.badges.find((b) => b.id === "b6d56")?.issuedAt).toBe("19 Aug 2025");
  });

  it("posts: sanitised, in their series, and every old address of a post lands on it", async () => {
    const posts = (await readJson<Record<string, unknown>[]>(await blogsData.loader(args(get("/data/blogs.json"))))).body;
    const salt = posts.find((p) => p.slug === "salt-and-light")!;
    expect(salt).toMatchObject({ title: "Being Salt and Light in Secular Places", seriesId: "abs0001", audioVideoId: "aJeNUlNY7Iw" });
    expect(String(salt.contentHtml)).toContain("where it is needed");
    expect(String(salt.contentHtml)).not.toMatch(/onerror|<script|javascript:/i);
    expect(posts.map((p) => p.slug)).toEqual(expect.arrayContaining(["post-1756997651377", "receipts-of-righteousness", "sabbath-rest"]));
    expect(posts.find((p) => p.slug === "sabbath-rest")).toMatchObject({ url: "", tags: ["rest", "sabbath"] });

    // Newest first (publishedAt), each dated the day it was published, episodes numbered as they were.
    expect(posts.map((p) => p.slug)).toEqual(["sabbath-rest", "light-in-the-market", "receipts-of-righteousness", "salt-and-light", "post-1756997651377"]);
    expect(posts.map((p) => p.date)).toEqual(["2025-11-01", "2025-10-20", "2025-10-02", "2025-09-04", "2025"]);
    expect(posts.map((p) => p.episodeNumber)).toEqual([undefined, 3, 2, 1, undefined]);
    // A title over 160 characters is kept whole; what had to be cut is in the report with its full text.
    const market = posts.find((p) => p.slug === "light-in-the-market")!;
    expect(market.title).toBe(LONG_TITLE);
    expect(market.summary).toBe(LONG_SUMMARY.slice(0, 600).trim());
    expect(market.tags).toHaveLength(12);
    expect(byFile(first, "data/blogs.json").cut).toEqual([
      { line: expect.any(Number), what: expect.stringContaining("post light-in-the-market: tags: 14 given, 12 kept"), full: MANY_TAGS.join(", ") },
      { line: expect.any(Number), what: `post light-in-the-market: summary: ${LONG_SUMMARY.length} characters, 600 kept`, full: LONG_SUMMARY },
    ]);
    // The formatting kept: bold, italics, alignment, colour; the video as a privacy-friendly player the page's policy allows.
    const html = String(salt.contentHtml);
    expect(html).toContain('<section style="text-align:center"><div style="color:#b91c1c"><span style="font-weight:bold">Salt keeps.</span> <span style="font-style:italic">Light shows.</span></div></section>');
    expect(html).toMatch(/<iframe src="https:\/\/www\.youtube-nocookie\.com\/embed\/aJeNUlNY7Iw" [^>]*sandbox="[^"]*"[^>]*><\/iframe>/);
    expect(html).not.toMatch(/position|frameborder|autoplay/);

    // The old LinkedIn covers expired (e=1759968000): the server draws the default cover, no script needed.
    expect(String(salt.image)).toContain("e=1759968000");
    const page = await pageHtml(postPage, "/blogs/:slug", "/blogs/salt-and-light");
    const imgs = [...page.matchAll(/<img [^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    expect(imgs.some((src) => src.includes("default-cover"))).toBe(true);
    expect(imgs.filter((src) => src.includes("media.licdn.com"))).toEqual([]);

    const post = await postPage.loader({ ...args(get("/blogs/salt-and-light")), params: { slug: "salt-and-light" } });
    expect(post.series).toEqual({ seriesId: "abs0001", title: "Christ In The Streets", part: 1, of: 3 });
    expect(post.csp.frameSrc).toContain("https://www.youtube-nocookie.com");
    expect(post.reactions).toMatchObject({ like: 5, love: 1 });
    for (const [from, to] of [
      ["/blogs/sabbath_rest", "/blogs/sabbath-rest"],
      ["/blogs/sabbathrest", "/blogs/sabbath-rest"],
    ] as const) {
      const moved = await thrown(postPage.loader({ ...args(get(from)), params: { slug: from.slice(7) } }));
      expect([moved.status, moved.headers.get("location")]).toEqual([301, to]);
    }
    for (const [file, to] of [
      ["sabbath_rest.html", "/share/blogs/sabbath-rest.html"],
      ["being-salt-and-light-in-secular-places.html", "/share/blogs/salt-and-light.html"],
    ]) {
      const res = await blogShare.loader({ ...args(get(`/share/blogs/${file}`)), params: { file } });
      expect([res.status, res.headers.get("location")]).toEqual([301, to]);
    }
    expect((await blogShare.loader({ ...args(get("/share/blogs/salt-and-light.html")), params: { file: "salt-and-light.html" } })).status).toBe(200);
  });

  it("series: the page lists its posts in order; series.php and /data/series.json keep the old shape", async () => {
    const page = await seriesPage.loader({ ...args(get("/blogs/series/abs0001")), params: { id: "abs0001" } });
    expect(page.series).toMatchObject({ seriesId: "abs0001", title: "Christ In The Streets" });
    // The series in its episodes' order (the file lists episode 3 before 2).
    expect(page.posts.map((p) => p.slug)).toEqual(["salt-and-light", "receipts-of-righteousness", "light-in-the-market"]);
    const old = [{ seriesId: "abs0001", title: "Christ In The Streets", image: "https://old-site.example/share/extra/cis.jpg", summary: expect.any(String), createdAt: "2025-08-01" }];
    expect((await readJson(await seriesApi.loader(args(get("/api/series.php"))))).body).toEqual(old);
    expect((await readJson(await seriesData.loader(args(get("/data/series.json"))))).body).toEqual(old);
    const missing = await seriesPage.loader({ ...args(get("/blogs/series/nope")), params: { id: "nope" } }).catch((e: unknown) => e);
    expect((missing as { init?: { status?: number } }).init?.status).toBe(404);
  });

  it("the old blog admin saves series, then posts: series.php answers as it did", async () => {
    const items = [
      { seriesId: "abs0001", title: "Christ In The Streets", image: "https://old-site.example/share/extra/cis.jpg" },
      { seriesId: "abs0002", title: "Rest", image: "" },
    ];
    expect((await readJson(await seriesApi.action(args(jsonPost("/api/series.php", { items }))))).status).toBe(401);
    expect((await readJson(await seriesApi.action(args(jsonPost("/api/series.php", {}, ADMIN))))).body).toMatchObject({ ok: false, error: "Missing items" });
    expect((await readJson(await seriesApi.action(args(jsonPost("/api/series.php", { items: [items[0], items[0]] }, ADMIN))))).body).toMatchObject({ ok: false, error: "Series 1 has an empty or duplicate seriesId" });
    expect((await readJson(await seriesApi.action(args(jsonPost("/api/series.php", { items: [{ title: "x" }] }, ADMIN))))).body).toMatchObject({ ok: false, error: "Series 0 missing seriesId/title" });
    const saved = await readJson(await seriesApi.action(args(jsonPost("/api/series.php", { items }, ADMIN))));
    expect([saved.status, saved.body]).toEqual([200, { ok: true }]);
    expect((await readJson<unknown[]>(await seriesData.loader(args(get("/data/series.json"))))).body).toEqual(items);
    // The posts keep their series through a save of the series list...
    const page = await seriesPage.loader({ ...args(get("/blogs/series/abs0001")), params: { id: "abs0001" } });
    expect(page.posts.map((p) => p.slug)).toEqual(["salt-and-light", "receipts-of-righteousness", "light-in-the-market"]);
    // ...and through a save of the posts that says nothing of series (the staff editor has no such field);
    // a post sent with an empty seriesId leaves its series.
    const posts = (await readJson<Record<string, unknown>[]>(await blogsData.loader(args(get("/data/blogs.json"))))).body;
    const list = posts.map(({ seriesId: _s, ...p }) => (p.slug === "receipts-of-righteousness" ? { ...p, seriesId: "" } : p));
    expect((await blogsApi.action(args(jsonPost("/api/blogs.php", { items: list }, ADMIN)))).status).toBe(200);
    const after = await seriesPage.loader({ ...args(get("/blogs/series/abs0001")), params: { id: "abs0001" } });
    expect(after.posts.map((p) => p.slug)).toEqual(["salt-and-light", "light-in-the-market"]);
  });

  it("orders on the staff screens: normalised, priced from the catalogue and the tiers, a shared code flagged on every order", async () => {
    const badge = await badgeOrdersPage.loader(args(get("/admin/badge-orders?status=all", staff())));
    if (!badge) throw new Error("expected the staff screen");
    const orders = badge.orders;
    // Every order of the old files is on the staff screen.
    expect(orders).toHaveLength(site.oldOrders.badge);
    const zawadi = orders.find((o) => o.name === "Zawadi Muthoni")!;
    expect(zawadi).toMatchObject({ email: "zawadi.muthoni@example.org", tierKey: "t3", amount: 1300, paymentReference: CODES.shared, status: "pending", hardCopy: true });
    expect(zawadi.portraitPath).toMatch(/^\/admin\/badge-orders\/BO-[0-9A-Z]{6}\/portrait\.jpg\?t=/);
    const mosi = orders.find((o) => o.name === "Mosi Kiplagat")!;
    expect(mosi.paymentReference).toBe(`${CODES.shared}-2`);
    for (const o of [zawadi, mosi]) expect(o.staffNote).toContain(`FLAG: Payment code ${CODES.shared} was given for two orders`);
    const kito = orders.find((o) => o.name === "Kito Ndege")!;
    expect(kito).toMatchObject({ amount: 300, paymentReference: CODES.typed, status: "approved", hardCopy: true });
    expect(kito.staffNote).toContain("the old site recorded KES 1,300");
    // Approved on the old site: its badge and poster are drawn, so its page offers them.
    expect(kito.badgePath).toMatch(/^\/admin\/badge-orders\/BO-[0-9A-Z]{6}\/badge\.png\?t=/);
    expect(kito.posterPath).toMatch(/poster\.jpg\?t=/);
    expect(orders.find((o) => o.name === "Lulu Adhiambo")?.status).toBe("rejected");
    const nia = orders.find((o) => o.name === "Nia Chebet")!;
    expect(nia.portraitPath).toBeNull();
    expect(nia.staffNote).toContain("portrait order_20251103_120000_d4e5f6_portrait.svg was left out");

    const merch = await merchOrdersPage.loader(args(get("/admin/merch-orders", staff())));
    if (!merch) throw new Error("expected the staff screen");
    expect(merch.orders).toHaveLength(site.oldOrders.merch);
    const tote = merch.orders.find((o) => o.customerName === "Rehema Njeri")!;
    expect(tote).toMatchObject({ total: 2400, currency: "KES", items: [expect.objectContaining({ itemId: "ab-tote-01", price: 1200, quantity: 2 })] });
    expect(tote.staffNotes).toContain("the old site recorded a total of KES 1");
    const pendo = merch.orders.find((o) => o.customerName === "Pendo Atieno")!;
    expect(pendo).toMatchObject({ customerEmail: "pendo@example.org", status: "approved", total: 3500 });
    expect(pendo.staffNotes).toContain("Paid in full");
    const sefu = merch.orders.find((o) => o.customerName === "Sefu Kibet")!;
    expect(sefu.paymentReference).toBe(`${CODES.shared}-2`);
    expect(sefu.staffNotes).toContain("FLAG:");
    // The flags are on the screens staff work from.
    const badgeScreen = await screenText(badgeOrdersPage, "/admin/badge-orders", "/admin/badge-orders?status=all");
    expect(badgeScreen).toContain(`FLAG: Payment code ${CODES.shared} was given for two orders on the old site`);
    expect(badgeScreen).toContain(`${CODES.shared}-2`);
    const merchScreen = await screenText(merchOrdersPage, "/admin/merch-orders", "/admin/merch-orders");
    expect(merchScreen).toContain("FLAG: Payment code");
    expect(merchScreen).toContain("catalogue prices give KES 2,400");
    // The orders today's rules refuse: pending, their reason and the old record in the note, kept as typed.
    const cash = orders.find((o) => o.name === "Jabari Cash")!;
    expect(cash).toMatchObject({ status: "pending", paymentReference: "paid cash at the table" });
    expect(cash.staffNote).toContain("On the old site: Paid at the merch table");
    expect(cash.staffNote).toContain("NEEDS REVIEW");
    expect(cash.staffNote).toContain("the old site had it approved");
    expect(cash.staffNote).toContain('"paymentReference":"paid cash at the table"');
    expect(orders.find((o) => o.name === "Kamaria Short")).toMatchObject({ status: "pending", paymentReference: CODES.short, staffNote: expect.stringContaining("NEEDS REVIEW") });
    expect(orders.find((o) => o.name === LONG_GROUP_NAME)).toMatchObject({ status: "pending", tierKey: "t5", staffNote: expect.stringContaining("the name is 92 characters") });
    expect(orders.find((o) => o.name === "Not An Email")).toMatchObject({ email: "not-an-email", staffNote: expect.stringContaining("NEEDS REVIEW") });
    expect(orders.find((o) => o.name === "Odd Tier")).toMatchObject({ status: "pending", staffNote: expect.stringContaining('"tierKey":"t9"') });
    const nelson = merch.orders.find((o) => o.customerName === "Nelson Barasa")!;
    expect(nelson).toMatchObject({ customerEmail: "nelson@gmail", status: "pending", staffNotes: expect.stringContaining("NEEDS REVIEW") });
    expect(merch.orders.find((o) => o.customerName === "Negative")).toMatchObject({ status: "pending", staffNotes: expect.stringContaining("the quantity -2") });
    expect(badgeScreen).toContain("NEEDS REVIEW");
    expect(badgeScreen).toContain("paid cash at the table");
    expect(merchScreen).toContain("nelson@gmail");
    // One ledger: the code pays for the first order only.
    const ledger = await db.selectFrom("payment_codes").selectAll().where("code", "like", `${CODES.shared}%`).execute();
    expect(ledger).toEqual([expect.objectContaining({ code: CODES.shared, kind: "badge", order_id: orders.find((o) => o.name === "Zawadi Muthoni")!.id })]);
  });

  it("/admin/imports: each run, per file, every refusal with its line and reason (the line as written), every order sent for review", async () => {
    const screen = await screenText(importsPage, "/admin/imports", "/admin/imports");
    expect(screen.match(/Import of /g)).toHaveLength(2);
    expect(screen).toContain("data/merch_orders.jsonl");
    expect(screen).toMatch(/data\/merch_orders\.jsonl \( merch orders \) 6 added, 1 already here, 2 for review, 1 refused, 0 cut\. Imported for staff to review Line 4 : /);
    expect(screen).toContain("Line 3 : not valid JSON");
    expect(screen).toContain('{"id": "mo_broken", "ts": "2025-10-22T08:00:00+00:00", "customerName": "Cut off');
    expect(screen).toContain("imported as pending for staff to review");
    expect(screen).toContain('"nelson@gmail" is not an email address');
    for (const f of first.files) for (const r of f.refused) expect(screen).toContain(r.reason);
    // Without a staff session the screen has nothing to show (the layout asks to sign in).
    expect(await importsPage.loader(args(get("/admin/imports")))).toBeNull();
  });

  it("staff notes are appended, never replaced: an imported order rejected, noted and re-noted keeps every earlier note (badge and merch)", async () => {
    const badge = (await badgeOrdersPage.loader(args(get("/admin/badge-orders?status=all", staff()))))!.orders.find((o) => o.name === "Kito Ndege")!;
    const imported = badge.staffNote;
    expect(imported).toContain("Imported from the old site (order order_20251102_100000_b2c3d4).");
    expect(imported).toContain("On the old site: Checked by phone");
    // Rejected with a note to the supporter (the old client's call), approved again, rejected again with another note.
    const reject = (note: string) => badgeApi.action(args(jsonPost("/api/badge_orders.php", { id: badge.id, status: "rejected", note }, ADMIN)));
    expect((await reject("No such payment on our statement.")).status).toBe(200);
    await setBadgeOrderStatus(db, badge.id, "approved", staffActor, { drawKit: true });
    expect((await reject("Refunded at the door.")).status).toBe(200);
    const after = (await badgeOrdersPage.loader(args(get("/admin/badge-orders?status=all", staff()))))!.orders.find((o) => o.id === badge.id)!;
    expect(after.staffNote.startsWith(imported)).toBe(true);
    expect(after.staffNote).toMatch(/\n\[\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} EAT\] Rejected\. Note to the supporter: No such payment on our statement\.\n\[[^\]]+\] Rejected\. Note to the supporter: Refunded at the door\.$/);
    expect(await screenText(badgeOrdersPage, "/admin/badge-orders", "/admin/badge-orders?status=all")).toContain("On the old site: Checked by phone");

    const merch = (await merchOrdersPage.loader(args(get("/admin/merch-orders", staff()))))!.orders.find((o) => o.customerName === "Pendo Atieno")!;
    const before = merch.staffNotes;
    expect(before).toContain("On the old site: Paid in full");
    const patch = (body: unknown) => merchApi.action(args(new Request(`http://site.test/api/merch_orders.php`, { method: "PATCH", body: JSON.stringify(body), headers: { "content-type": "application/json", ...ADMIN } })));
    expect((await patch({ id: merch.id, status: "rejected", notes: "Code not on the statement." })).status).toBe(200);
    expect((await patch({ id: merch.id, status: "pending", notes: null })).status).toBe(200);
    expect((await patch({ id: merch.id, status: "approved", notes: "Found it after all." })).status).toBe(200);
    const row = await db.selectFrom("merch_orders").select(["staff_notes", "supporter_note"]).where("id", "=", merch.id).executeTakeFirstOrThrow();
    expect(row.staff_notes.startsWith(before)).toBe(true);
    expect(row.staff_notes.slice(before.length)).toMatch(/^\n\[[^\]]+ EAT\] Rejected: Code not on the statement\.\n\[[^\]]+ EAT\] Approved: Found it after all\.$/);
    // The customer's own note is the latest review's, never staff's log.
    expect(row.supporter_note).toBe("Found it after all.");
    expect(await screenText(merchOrdersPage, "/admin/merch-orders", "/admin/merch-orders")).toContain("Code not on the statement.");
  });

  it("old references work: /orders and staff search find order_… and mo_…; mails quote the reference and code the supporter knew", async () => {
    for (const [reference, email] of [
      ["order_20251101_090000_a1b2c3", "zawadi.muthoni@example.org"],
      ["ORDER_20251101_090000_A1B2C3", "Zawadi.Muthoni@example.org"],
      ["mo_6b0105e25fd897.61794504", "pendo@example.org"],
    ] as const) {
      const moved = await thrown(lookupPage.action(args(formPost("/orders", { reference, email }))));
      expect([moved.status, moved.headers.get("location")], reference).toEqual([302, expect.stringMatching(/^\/orders\/(BO|MO)-[0-9A-Z]{6}\?t=/)]);
    }
    // A wrong email is the same 'not found' as for any order.
    const wrong = await lookupPage.action(args(formPost("/orders", { reference: "order_20251101_090000_a1b2c3", email: "someone@example.org" })));
    expect(JSON.stringify(wrong)).toContain("We could not find an order with that reference and email.");

    const badge = (await badgeOrdersPage.loader(args(get("/admin/badge-orders?status=all&q=order_20251103_080000_e5f6a7", staff()))))!.orders;
    expect(badge.map((o) => o.name)).toEqual(["Mosi Kiplagat"]);
    const merch = (await merchOrdersPage.loader(args(get("/admin/merch-orders?q=mo_6b0105e25fd897.61794507", staff()))))!.orders;
    expect(merch.map((o) => o.customerName)).toEqual(["Sefu Kibet"]);

    // Mosi's code was kept as QAB1C2D3E4-2 (shared with another old order); the mail quotes what Mosi gave.
    const mosi = badge[0]!;
    expect(mosi.paymentReference).toBe(`${CODES.shared}-2`);
    expect((await badgeApi.action(args(jsonPost("/api/badge_orders.php", { id: mosi.id, status: "rejected", note: "Two orders, one payment." }, ADMIN)))).status).toBe(200);
    const mail = await db.selectFrom("outbox").select(["subject", "text_body"]).where("kind", "=", "badge.rejected").where("to_address", "=", "mosi@example.org").executeTakeFirstOrThrow();
    expect(mail.text_body).toContain("You placed this order on our old site as order_20251103_080000_e5f6a7");
    expect(mail.text_body).toContain(`M-Pesa code: ${CODES.shared}\n`);
    expect(mail.text_body).not.toContain(`${CODES.shared}-2`);
  });

  it("the dashboards' figures include the old site's views, events, reactions, votes, subscribers and log", async () => {
    await flushAnalytics();
    const views = (await readJson<{ items: { page: string; total: number }[] }>(await analyticsApi.loader(args(get("/api/analytics.php?mode=page_views&since=30", ADMIN))))).body.items;
    expect(views).toEqual(expect.arrayContaining([expect.objectContaining({ page: "home", total: 2 }), expect.objectContaining({ page: "merch.store", total: 1 })]));
    const blog = (await readJson<{ items: { slug: string; total: number; site: number; share: number }[] }>(await analyticsApi.loader(args(get("/api/analytics.php?mode=blog_views&since=30", ADMIN))))).body.items;
    expect(blog).toEqual(expect.arrayContaining([expect.objectContaining({ slug: "salt-and-light", total: 2, site: 1, share: 1 }), expect.objectContaining({ slug: "sabbath-rest", total: 1 })]));
    const events = (await readJson<{ items: { name: string; total: number }[] }>(await analyticsApi.loader(args(get("/api/analytics.php?mode=events&since=30", ADMIN))))).body.items;
    expect(events).toEqual(expect.arrayContaining([expect.objectContaining({ name: "client.error", total: 1 }), expect.objectContaining({ name: "merch.item.view", total: 1 })]));
    const screen = await activityPage.loader(args(get("/admin/activity?since=0", staff())));
    if (!screen) throw new Error("expected the staff screen");
    expect(screen.pages).toEqual(expect.arrayContaining([expect.objectContaining({ name: "home", total: 2 }), expect.objectContaining({ name: "about", total: 1 })]));
    expect(screen.activity?.map((a) => a.type)).toEqual(expect.arrayContaining(["blogs.save", "series.save", "merch.order.received", "legacy.import"]));

    const log = (await readJson<{ items: { type: string; message: string }[] }>(await activityApi.loader(args(get("/api/activity.php?limit=200", ADMIN))))).body.items;
    expect(log[0]).toMatchObject({ type: "blogs.save", message: "Saved blogs.json" });

    expect((await readJson(await reactionsApi.loader(args(get("/api/reactions.php?slug=sabbath-rest"))))).body).toMatchObject({ counts: { pray: 2 } });
    expect((await readJson(await pollsApi.loader(args(get("/api/polls.php?id=blog-salt-and-light-poll"))))).body).toMatchObject({ options: { Yes: 4, No: 1 } });
    expect((await readJson(await pollsApi.loader(args(get("/api/polls.php?id=blog-sabbath-rest-feedback"))))).body).toMatchObject({ options: { "Inspired me:5": 2 } });
    const subs = (await readJson<{ items: { email: string; status: string }[] }>(await subscribersApi.loader(args(get("/api/subscribers.php?mode=list", ADMIN))))).body.items;
    expect(subs.filter((s) => s.email.startsWith("reader."))).toEqual(expect.arrayContaining([
      expect.objectContaining({ email: "reader.one@example.org", status: "active" }),
      expect.objectContaining({ email: "reader.two@example.org", status: "unsubscribed" }),
    ]));
    expect(subs.filter((s) => s.email.startsWith("reader."))).toHaveLength(2);
    // The error report's long text is kept, cut to 200 characters.
    const error = await db.selectFrom("analytics_events").select("meta").where("name", "=", "client.error").executeTakeFirstOrThrow();
    expect(JSON.parse(error.meta)).toEqual({ message: "E".repeat(200), stack: '{"frames":["a","b"]}' });
  });

  it("every old link shape answers: 301 to the nearest page (which answers 200); the series cover is served; reactions and votes on old slugs count on the post", async () => {
    // Each target page: its loader answers (pages without one are static and always render).
    type Page = { default: unknown; loader?: (a: unknown) => unknown };
    const answers = (mod: Page, url: string, headers = {}) => async () => {
      expect(typeof mod.default).toBe("function");
      return mod.loader ? mod.loader(args(get(url, headers))) : null;
    };
    const pages: Record<string, () => Promise<unknown>> = {
      "/": answers(homePage as Page, "/"),
      "/vespers": answers(vespersPage as Page, "/vespers"),
      "/event": answers(eventPage as Page, "/event"),
      "/privacy": answers(privacyPage as Page, "/privacy"),
      "/admin": answers(adminHome as Page, "/admin", staff()),
    };
    const shapes = ["/vespers/gratitude", "/run", "/run/register", "/run/promo-confirmation", "/run/payment-status", "/donate", "/donate/status", "/admin/run-registrations", "/admin/run-ipay", "/docs/privacy-policy.html", "/docs/terms-of-participation.html", "/docs/rulebook.html", "/docs/disclaimer.html", "/index.html"];
    expect(Object.keys(OLD_LINKS).sort()).toEqual([...shapes].sort());
    for (const from of shapes) {
      const res = oldLinks.loader(args(get(`${from}?utm_source=email`)));
      expect(res.status, from).toBe(301);
      const to = res.headers.get("location")!;
      expect(Object.keys(pages), from).toContain(to);
      const page = await pages[to]!().catch((e: unknown) => e);
      expect(page instanceof Response ? page.status : 200, `${from} -> ${to}`).toBe(200);
    }
    // The series cover the series names (share/extra/cis.jpg), re-encoded as the JPEG it is.
    const cover = await extraFile.loader({ ...args(get("/share/extra/cis.jpg")), params: { file: "cis.jpg" } });
    expect([cover.status, cover.headers.get("content-type")]).toEqual([200, "image/jpeg"]);
    expect(await sharp(Buffer.from(await cover.arrayBuffer())).metadata()).toMatchObject({ format: "jpeg", width: 120, height: 80 });
    expect((await extraFile.loader({ ...args(get("/share/extra/nope.jpg")), params: { file: "nope.jpg" } })).status).toBe(404);
    expect((await extraFile.loader({ ...args(get("/share/extra/..%2Fx.jpg")), params: { file: "../x.jpg" } })).status).toBe(404);

    // The old client's reaction and vote on sabbath_rest land on sabbath-rest.
    const cid = { "X-Client-Id": "d".repeat(32) };
    const before = (await readJson<{ counts: Record<string, number> }>(await reactionsApi.loader(args(get("/api/reactions.php?slug=sabbath-rest"))))).body.counts.like ?? 0;
    const liked = await readJson<{ counts: Record<string, number> }>(await reactionsApi.action(args(jsonPost("/api/reactions.php", { slug: "sabbath_rest", reaction: "like" }, cid))));
    expect([liked.status, liked.body.counts.like]).toEqual([200, before + 1]);
    expect((await readJson<{ counts: Record<string, number> }>(await reactionsApi.loader(args(get("/api/reactions.php?slug=sabbath_rest"))))).body.counts.like).toBe(before + 1);
    const voted = await readJson<{ options: Record<string, number> }>(await pollsApi.action(args(jsonPost("/api/polls.php", { id: "blog-sabbath_rest-feedback", option: "Inspired me:5" }, cid))));
    expect([voted.status, voted.body.options["Inspired me:5"]]).toEqual([200, 3]);
    expect((await readJson(await pollsApi.loader(args(get("/api/polls.php?id=blog-sabbath-rest-feedback"))))).body).toMatchObject({ options: { "Inspired me:5": 3 } });
  });

  it("every other old link answers 200 or moves for good", async () => {
    const event = await eventPage.loader(args(get("/event?utm_source=share&utm_medium=badge&utm_campaign=event_t3")));
    expect(event).toBeTruthy();
    for (const [from, to] of [
      ["/merch", "/merchandise"],
      ["/merch/admin", "/merchandise/admin"],
    ] as const) {
      const res = merchRedirect.loader(args(get(from)));
      expect([res.status, res.headers.get("location")]).toEqual([301, to]);
    }
    expect((await merchShare.loader({ ...args(get("/share/merchandise/hoodie-classic.html")), params: { file: "hoodie-classic.html" } })).status).toBe(200);
    const store = await storePage.loader(args(get("/merchandise?item=hoodie-classic")));
    expect(JSON.stringify(store)).toContain("hoodie-classic");
    const catalogue = (await readJson<{ slug: string; price: number }[]>(await merchData.loader(args(get("/data/merch.json"))))).body;
    // No demo item of the seed is left beside the real ones.
    expect(catalogue.map((i) => i.slug)).toEqual(["hoodie-classic", "tote-market"]);
    expect(catalogue).toEqual(expect.arrayContaining([expect.objectContaining({ slug: "hoodie-classic", price: 3500 }), expect.objectContaining({ slug: "tote-market", price: 1200 })]));
    for (const [file, to] of [
      ["badge_orders.json", "/admin/badge-orders"],
      ["merch_orders.jsonl", "/admin/merch-orders"],
      ["analytics.jsonl", "/admin/activity"],
      ["subscribers.json", "/admin/engagement"],
    ]) {
      const res = await legacyData.loader(args(get(`/data/${file}`)));
      expect([res.status, res.headers.get("location")]).toEqual([301, to]);
    }
    expect((await legacyData.loader(args(get("/data/nothing.json")))).status).toBe(404);
  });
});

describe("the old client's tracking", () => {
  it("an event with a meta text over 200 characters is kept, the text cut", async () => {
    const res = await trackApi.action(args(jsonPost("/api/track.php", { type: "event", name: "client.error", meta: { message: "x".repeat(900), line: 12 }, path: "/event", cid: "c".repeat(32) })));
    expect(res.status).toBe(200);
    await flushAnalytics();
    const rows = await db.selectFrom("analytics_events").select("meta").where("name", "=", "client.error").where("cid", "=", "c".repeat(32)).execute();
    expect(rows.map((r) => JSON.parse(r.meta))).toEqual([{ message: "x".repeat(200), line: 12 }]);
  });
});
