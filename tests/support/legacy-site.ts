import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

/**
 * An old site's public/ folder, written from the shapes in docs/legacy-site.md (shared docs,
 * 'The old site: its data files, links and shapes'): every file kind the import reads, with the
 * old data's weaknesses in it: broken lines, duplicates, hostile HTML, prices from the browser,
 * a payment code used twice, an SVG portrait, slugs this site cannot use. Every person, email,
 * phone and code here is made up.
 */

/** The nine team badges of the old site (ids, titles, teams, dates and categories as listed; holders made up). */
export const OLD_BADGES = [
  { id: "b6d56", title: "Team Lead", subtitle: "Articles and Blogs", ownerName: "Amani Wekesa", issuedAt: "Aug 19, 2025", category: "community" },
  { id: "b7a84", title: "Team Lead Founders", subtitle: "Lead Generation", ownerName: "Baraka Njoroge", issuedAt: "Jul 22, 2025", category: "community" },
  { id: "b5d38", title: "Team Lead Founders", subtitle: "UI/UX & Designs", ownerName: "Chebet Langat", issuedAt: "Jul 22, 2025", category: "dev" },
  { id: "b5692", title: "Team Lead Founders", subtitle: "Dev Ops", ownerName: "Daudi Otieno", issuedAt: "Jul 22, 2025", category: "dev" },
  { id: "b2b0a", title: "Team Lead Founders", subtitle: "Front-End", ownerName: "Eshe Mwangi", issuedAt: "Jul 22, 2025", category: "dev" },
  { id: "b368e", title: "Team Lead Founders", subtitle: "Articles & Blogs", ownerName: "Faraji Kamau", issuedAt: "Jul 22, 2025", category: "community" },
  { id: "b383b", title: "Team Lead coFounders", subtitle: "Strategic Commitee", ownerName: "Gathoni Wairimu", issuedAt: "Jul 22, 2025", category: "community" },
  { id: "b84ed", title: "Team Lead coFounders", subtitle: "Strategic Commitee", ownerName: "Hamisi", issuedAt: "Jul 22, 2025", category: "dev" },
  { id: "b8062", title: "Team Lead Founders", subtitle: "Back-end", ownerName: "Imani Achieng", issuedAt: "Jul 22, 2025", category: "dev" },
] as const;

/** Codes in the old orders (made up, in M-Pesa's shape). */
export const CODES = {
  shared: "QAB1C2D3E4", // a badge order and a later badge order, and a merch order, all gave it
  typed: "QKX9Z8Y7W6", // typed lower case with spaces on the old site
  rejected: "RFT5G6H7J8",
  svg: "SLM2N3P4Q5",
  hoodie: "TGH3J4K5L6",
  tote: "UHJ4K5L6M7",
  noId: "VJK5L6M7N8",
  short: "TK4DE5FG6", // 9 characters: the old site took it
} as const;

/** The third episode's title, as long as the old site let it be (over 160 characters). */
export const LONG_TITLE =
  "Light in the Market: What the Traders of Gikomba Taught Us About Faithfulness, Fair Measures, Early Mornings, and the Quiet Courage It Takes to Keep an Honest Stall for Thirty Years";
/** Its summary (1,100 characters) and tags (14): more than this site keeps. */
export const LONG_SUMMARY = `${`${"Early mornings among the stalls. ".repeat(34)}`.slice(0, 1099)}.`;
export const MANY_TAGS = ["faith", "work", "market", "gikomba", "trade", "honesty", "mornings", "courage", "community", "nairobi", "series", "light", "salt", "episode-three"];

/** A group's name as the old site took it: 92 characters (this site takes 80). */
export const LONG_GROUP_NAME = "St. Mary's Parish Youth Fellowship, Kariobangi North Chapter — Street Outreach Volunteers 25";

export type LegacySite = {
  dir: string;
  /** Lines (1-based) of records the import must refuse, per file. */
  refusedLines: Record<string, number[]>;
  /** Lines of records today's rules refuse, which the import takes as pending for staff to review. */
  reviewLines: Record<string, number[]>;
  /** How many distinct orders the old files hold (each must reach a staff screen). */
  oldOrders: { badge: number; merch: number };
  /** How many records of each file the import should add the first time. */
  expectAdded: Record<string, number>;
};

/** An old log's time, `daysAgo` days before `now`, as PHP's gmdate('c') wrote it. */
const day = (now: Date, daysAgo: number) => new Date(Math.floor((now.getTime() - daysAgo * 86_400_000) / 1000) * 1000).toISOString().replace(".000Z", "+00:00");

/** The lines of a pretty-printed JSON text that open a record at `indent` spaces. */
const openingLines = (text: string, indent: number) =>
  text.split("\n").flatMap((l, i) => (l === `${" ".repeat(indent)}{` ? [i + 1] : []));

/** Where each record of a pretty-printed JSON list starts (the line of its opening brace). */
function writeList(file: string, items: unknown[]): number[] {
  const text = JSON.stringify(items, null, 4);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return openingLines(text, 4);
}

function writeLines(file: string, lines: string[]) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
}

async function png(width: number, height: number, colour: string) {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

const SHARE_PAGE = (title: string, description: string, url: string, image: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:image" content="${image}">
<meta property="og:url" content="${url}">
<meta http-equiv="refresh" content="0; url=${url}">
</head><body><a href="${url}">${title}</a></body></html>
`;

/** Writes the old site's public/ folder at `dir` (created) and says what the import should make of it. */
export async function buildLegacySite(dir: string, now = new Date()): Promise<LegacySite> {
  fs.rmSync(dir, { recursive: true, force: true });
  const data = path.join(dir, "data");
  fs.mkdirSync(data, { recursive: true });
  const refusedLines: Record<string, number[]> = {};
  const reviewLines: Record<string, number[]> = {};

  // ---- series.json: one series, and one with no id
  const seriesLines = writeList(path.join(data, "series.json"), [
    { seriesId: "abs0001", title: "Christ In The Streets", image: "https://old-site.example/share/extra/cis.jpg", summary: "Stories and reflections about meeting people with hope in everyday places.", createdAt: "2025-08-01" },
    { seriesId: "  ", title: "A series with no id" },
  ]);
  refusedLines["data/series.json"] = [seriesLines[1]!];

  // ---- blogs.json: the four posts as the old repository commits them (episodeNumber, publishedAt,
  // inline styles, div and section wrappers, a YouTube iframe, LinkedIn covers whose e= time is
  // long past), a third episode listed before the second, a duplicate, a post with no title
  const hostile = `<p style="color:#333">Light shines <strong>where it is needed</strong>.</p><img src=x onerror="alert('xss')"><script>alert('xss')</script><p><a href="javascript:alert(1)">click</a> and <a href="https://example.org/read">read</a></p>`;
  const formatted =
    `<section style="text-align:center"><div style="color:#b91c1c;position:fixed"><span style="font-weight:bold">Salt keeps.</span> <span style="font-style:italic">Light shows.</span></div></section>` +
    `<iframe width="560" height="315" src="https://www.youtube.com/embed/aJeNUlNY7Iw?si=Xy12" title="YouTube video player" frameborder="0" allow="accelerometer; autoplay; clipboard-write" allowfullscreen></iframe>`;
  const linkedInCover = (id: string) => `https://media.licdn.com/dms/image/v2/${id}/article-cover_image-shrink_720_1280/0/1757000000000?e=1759968000&v=beta&t=abc`;
  const posts = [
    { title: "Being Salt and Light in Secular Places", summary: "Faith at work and in the street.", url: "https://www.linkedin.com/pulse/salt-and-light-example", author: "Nyokabi Wanjiku", date: "2025", publishedAt: "2025-09-04T07:00:00.000Z", tags: ["faith", "work"], slug: "salt-and-light", contentHtml: hostile + formatted, image: linkedInCover("D4D12AQ1"), audioVideoId: "aJeNUlNY7Iw", seriesId: "abs0001", episodeNumber: 1 },
    { title: "New Title", summary: "", url: "", author: "Shellton", date: "2025", tags: [], slug: "post-1756997651377", contentHtml: "content here" },
    { title: LONG_TITLE, summary: LONG_SUMMARY, url: "https://www.linkedin.com/pulse/market-example", author: "Otieno Ouma", date: "2025", publishedAt: "2025-10-20T07:00:00.000Z", tags: MANY_TAGS, slug: "light-in-the-market", contentHtml: "<p>Part three.</p>", image: linkedInCover("D4D12AQ3"), seriesId: "abs0001", episodeNumber: 3 },
    { title: "Receipts of Righteousness", summary: "Keeping short accounts.", url: "https://www.linkedin.com/pulse/receipts-example", author: "Otieno Ouma", date: "2025", publishedAt: "2025-10-02T07:00:00.000Z", tags: ["faith"], slug: "receipts-of-righteousness", contentHtml: "<p>Part two.</p>", image: linkedInCover("D4D12AQ2"), seriesId: "abs0001", episodeNumber: 2 },
    { title: "The Rest That Welcomes Us Home", summary: "On sabbath rest.", url: "http://insecure.example.org/rest", author: "Wambui Kariuki", date: "2025", publishedAt: "2025-11-01T07:00:00.000Z", tags: "rest, sabbath", slug: "sabbath_rest", contentHtml: "<p>Rest.</p>" },
    { title: "Being Salt and Light (again)", summary: "", url: "https://www.linkedin.com/pulse/dup", slug: "salt-and-light" },
    { summary: "No title here", url: "https://www.linkedin.com/pulse/x", slug: "untitled-post" },
  ];
  const postLines = writeList(path.join(data, "blogs.json"), posts);
  refusedLines["data/blogs.json"] = [postLines[6]!];

  // ---- merch.json: the two items
  writeList(path.join(data, "merch.json"), [
    { id: "ab-hoodie-01", name: "the organisation Street Hoodie", slug: "hoodie-classic", description: "Heavy hoodie.", price: 3500, currency: "KES", impact: "10 hot meals or 1 sound-system rental hour", image: "https://images.example.org/hoodie.jpg", tags: ["Apparel", "Limited"], available: true, colors: [{ label: "Black", swatch: "#111111" }, { label: "Midnight Navy", swatch: "#1b2a4a" }, { label: "Sandstone", swatch: "#d8c3a5" }], sizes: ["S", "M", "L", "XL", "2XL"] },
    { id: "ab-tote-01", name: "Mercy Market Tote Bag", slug: "tote-market", description: "Isaiah 58 artwork.", price: 1200, currency: "KES", impact: "40 discipleship journals", image: "https://images.example.org/tote.jpg", tags: ["Accessories"], available: true, colors: [{ label: "Natural Cotton", swatch: "#f3ead8" }, { label: "Charcoal Grey", swatch: "#444444" }], sizes: ["One size"] },
  ]);

  // ---- badge_orders.json and its portraits
  const orders = path.join(data, "badge_orders");
  fs.mkdirSync(orders, { recursive: true });
  fs.writeFileSync(path.join(orders, "order_20251101_090000_a1b2c3_portrait.png"), await png(900, 600, "#884422"));
  fs.writeFileSync(
    path.join(orders, "order_20251103_120000_d4e5f6_portrait.svg"),
    `<svg xmlns="http://www.w3.org/2000/svg" onload="alert('xss')"><rect width="10" height="10"/></svg>`,
  );
  const serverPath = (name: string) => `/home/site/public_html/public/api/../data/badge_orders/${name}`;
  const badgeOrders = [
    { id: "order_20251101_090000_a1b2c3", createdAt: "2025-11-01T09:00:00+00:00", status: "pending", name: "Zawadi Muthoni", email: " Zawadi.Muthoni@Example.org ", phone: "+254 700 000 001", tierKey: "t3", tierName: "Big Friend", amount: 1300, paymentReference: CODES.shared, hardCopy: true, notes: "Front row please", shareUrl: "https://old-site.example/event?utm_source=share&utm_medium=badge&utm_campaign=event_t3", portraitPath: serverPath("order_20251101_090000_a1b2c3_portrait.png"), badgePath: null, posterPath: null },
    { id: "order_20251102_100000_b2c3d4", createdAt: "2025-11-02T10:00:00+00:00", status: "approved", approvedAt: "2025-11-02T12:00:00+00:00", name: "Kito Ndege", email: "kito@example.org", phone: "", tierKey: "t1", tierName: "Friends Badge", amount: "1300abc", paymentReference: "qkx 9z8y-7w6", hardCopy: "no", notes: "", shareUrl: "", portraitPath: null, badgePath: null, posterPath: null, adminNote: "Checked by phone" },
    { id: "order_20251102_110000_c3d4e5", createdAt: "2025-11-02T11:00:00+00:00", status: "rejected", updatedAt: "2025-11-02T15:00:00+00:00", name: "Lulu Adhiambo", email: "lulu@example.org", tierKey: "t5", tierName: "Champion", amount: 3400, paymentReference: CODES.rejected, hardCopy: false, notes: "", portraitPath: null },
    { id: "order_20251103_080000_e5f6a7", createdAt: "2025-11-03T08:00:00+00:00", status: "pending", name: "Mosi Kiplagat", email: "mosi@example.org", tierKey: "t2", tierName: "Helping Hand", amount: 500, paymentReference: CODES.shared, hardCopy: false, notes: "Same code as my friend", portraitPath: null },
    { id: "order_20251103_120000_d4e5f6", createdAt: "2025-11-03T12:00:00+00:00", status: "pending", name: "Nia Chebet", email: "nia@example.org", tierKey: "t4", tierName: "Partner", amount: 2100, paymentReference: CODES.svg, hardCopy: false, notes: "", portraitPath: serverPath("order_20251103_120000_d4e5f6_portrait.svg") },
    { id: "order_20251104_090000_f6a7b8", createdAt: "2025-11-04T09:00:00+00:00", status: "pending", name: "Not An Email", email: "not-an-email", tierKey: "t1", tierName: "Friends Badge", amount: 300, paymentReference: "WAB1C2D3E4", hardCopy: false },
    { id: "order_20251104_100000_a7b8c9", createdAt: "2025-11-04T10:00:00+00:00", status: "pending", name: "Odd Tier", email: "odd@example.org", tierKey: "t9", tierName: "Platinum", amount: 99999, paymentReference: "XAB1C2D3E4", hardCopy: false },
    // Accepted by the old PHP, refused by today's rules: imported as pending, for staff to review.
    { id: "order_20251105_080000_b8c9d0", createdAt: "2025-11-05T08:00:00+00:00", status: "approved", name: "Jabari Cash", email: "jabari@example.org", tierKey: "t3", tierName: "Big Friend", amount: 1300, paymentReference: "paid cash at the table", hardCopy: false, adminNote: "Paid at the merch table" },
    { id: "order_20251105_090000_c9d0e1", createdAt: "2025-11-05T09:00:00+00:00", status: "pending", name: "Kamaria Short", email: "kamaria@example.org", tierKey: "t2", tierName: "Helping Hand", amount: 500, paymentReference: CODES.short, hardCopy: false },
    { id: "order_20251105_100000_d0e1f2", createdAt: "2025-11-05T10:00:00+00:00", status: "pending", name: LONG_GROUP_NAME, email: "youth@example.org", tierKey: "t5", tierName: "Champion", amount: 3400, paymentReference: "ZAB1C2D3E4", hardCopy: true },
    { id: "order_20251101_090000_a1b2c3", createdAt: "2025-11-01T09:00:00+00:00", status: "pending", name: "Zawadi Muthoni (saved twice)", email: "zawadi.muthoni@example.org", tierKey: "t3", amount: 1300, paymentReference: CODES.shared },
  ];
  const orderLines = writeList(path.join(data, "badge_orders.json"), badgeOrders);
  refusedLines["data/badge_orders.json"] = [];
  reviewLines["data/badge_orders.json"] = [orderLines[5]!, orderLines[6]!, orderLines[7]!, orderLines[8]!, orderLines[9]!];

  // ---- merch_orders.jsonl: orders as appended, a broken line, a negative quantity, a blank line
  const hoodieLine = { itemId: "ab-hoodie-01", name: "the organisation Street Hoodie", price: 3500, quantity: 1, color: { label: "Black", swatch: "#111111" }, size: "M" };
  writeLines(path.join(data, "merch_orders.jsonl"), [
    JSON.stringify({ id: "mo_6b0105e25fd897.61794504", ts: "2025-10-20T08:00:00+00:00", customerName: "Pendo Atieno", customerEmail: "PENDO@example.org", customerPhone: "0700000002", notes: "", paymentReference: CODES.hoodie, total: 3500, currency: "KES", items: [hoodieLine], ip: "192.0.2.10", status: "approved", reviewedAt: "2025-10-20T10:00:00+00:00", staffNotes: "Paid in full" }),
    JSON.stringify({ id: "mo_6b0105e25fd897.61794505", ts: "2025-10-21T08:00:00+00:00", customerName: "Rehema Njeri", customerEmail: "rehema@example.org", paymentReference: CODES.tote, total: 1, currency: "KES", items: [{ itemId: "ab-tote-01", name: "Mercy Market Tote Bag", price: 1, quantity: 2, color: { label: "Natural Cotton", swatch: "#f3ead8" }, size: "One size" }], ip: "192.0.2.11" }),
    `{"id": "mo_broken", "ts": "2025-10-22T08:00:00+00:00", "customerName": "Cut off`,
    JSON.stringify({ id: "mo_6b0105e25fd897.61794506", ts: "2025-10-22T09:00:00+00:00", customerName: "Negative", customerEmail: "neg@example.org", paymentReference: "YAB1C2D3E4", total: 1, items: [{ ...hoodieLine, quantity: -2 }] }),
    "",
    JSON.stringify({ id: "mo_6b0105e25fd897.61794507", ts: "2025-10-23T09:00:00+00:00", customerName: "Sefu Kibet", customerEmail: "sefu@example.org", paymentReference: CODES.shared, total: 3500, items: [hoodieLine] }),
    JSON.stringify({ ts: "2025-10-24T09:00:00+00:00", customerName: "Tumaini Wafula", customerEmail: "tumaini@example.org", paymentReference: CODES.noId, total: 1200, items: [{ itemId: "ab-tote-01", name: "Mercy Market Tote Bag", price: 1200, quantity: 1, size: "One size", color: { label: "Charcoal Grey", swatch: "#444444" } }] }),
    JSON.stringify({ id: "mo_6b0105e25fd897.61794504", ts: "2025-10-20T08:00:00+00:00", customerName: "Pendo Atieno", customerEmail: "pendo@example.org", paymentReference: CODES.hoodie, total: 3500, items: [hoodieLine] }),
    JSON.stringify({ id: "mo_6b0105e25fd897.61794508", ts: "2025-10-25T09:00:00+00:00", customerName: "Nelson Barasa", customerEmail: "nelson@gmail", paymentReference: "SKB1C2D3E4", total: 3500, items: [hoodieLine], status: "pending" }),
  ]);
  refusedLines["data/merch_orders.jsonl"] = [3];
  reviewLines["data/merch_orders.jsonl"] = [4, 9];

  // ---- subscribers.json
  const subscribers = JSON.stringify(
    {
      items: [
        { email: "Reader.One@Example.org", source: "blogs:index", status: "active", created_at: "2025-09-01T08:00:00+00:00" },
        { email: "reader.one@example.org", source: "footer", status: "active", created_at: "2025-09-02T08:00:00+00:00" },
        { email: "not-an-email", source: "api", status: "active", created_at: "2025-09-03T08:00:00+00:00" },
        { email: "reader.two@example.org", source: "blogs:salt-and-light", status: "unsubscribed", created_at: "2025-09-04T08:00:00+00:00" },
      ],
    },
    null,
    4,
  );
  fs.writeFileSync(path.join(data, "subscribers.json"), subscribers);
  refusedLines["data/subscribers.json"] = [openingLines(subscribers, 8)[2]!];

  // ---- reactions.json and its log (the old site stripped the underscore: sabbathrest)
  fs.writeFileSync(path.join(data, "reactions.json"), JSON.stringify({ slugs: { "salt-and-light": { like: 5, love: 1 }, sabbathrest: { pray: 2 }, "no-such-post": { like: 1 } } }, null, 4));
  const cidA = "a".repeat(32);
  const cidB = "b".repeat(32);
  writeLines(path.join(data, "reactions_log.jsonl"), [
    JSON.stringify({ ts: day(now, 3), ip: "192.0.2.20", cid: cidA, slug: "salt-and-light", reaction: "like", action: "add" }),
    JSON.stringify({ ts: day(now, 3), ip: "192.0.2.20", cid: cidA, slug: "salt-and-light", reaction: "like", action: "dup" }),
    JSON.stringify({ ts: day(now, 3), ip: "192.0.2.21", cid: "", slug: "salt-and-light", reaction: "like", action: "add" }),
    JSON.stringify({ ts: day(now, 3), ip: "192.0.2.21", cid: "", slug: "salt-and-light", reaction: "like", action: "add" }),
    JSON.stringify({ ts: day(now, 2), ip: "192.0.2.22", cid: cidB, slug: "salt-and-light", reaction: "love", action: "add" }),
    JSON.stringify({ ts: day(now, 2), ip: "192.0.2.22", cid: cidB, slug: "sabbathrest", reaction: "pray", action: "add" }),
    `{"ts": "broken`,
    JSON.stringify({ ts: day(now, 1), ip: "192.0.2.23", cid: cidB, slug: "salt-and-light", reaction: "party", action: "add" }),
  ]);
  refusedLines["data/reactions_log.jsonl"] = [7, 8];

  // ---- polls.json and its log
  fs.writeFileSync(
    path.join(data, "polls.json"),
    JSON.stringify(
      {
        polls: {
          "blog-salt-and-light-poll": { question: "What do you think?", options: { Yes: 4, No: 1 } },
          "blog-sabbath_rest-feedback": { question: "How did this post land with you?", options: { "Inspired me:5": 2 } },
        },
      },
      null,
      4,
    ),
  );
  writeLines(path.join(data, "polls_log.jsonl"), [
    JSON.stringify({ ts: day(now, 3), ip: "192.0.2.30", cid: cidA, id: "blog-salt-and-light-poll", option: "Yes", dup: false }),
    JSON.stringify({ ts: day(now, 3), ip: "192.0.2.31", cid: "", id: "blog-salt-and-light-poll", option: "Yes", dup: false }),
    JSON.stringify({ ts: day(now, 3), ip: "192.0.2.31", cid: "", id: "blog-salt-and-light-poll", option: "Yes", dup: false }),
    JSON.stringify({ ts: day(now, 2), ip: "192.0.2.32", cid: cidB, id: "blog-salt-and-light-poll", option: "No", dup: false }),
    JSON.stringify({ ts: day(now, 2), ip: "192.0.2.32", cid: cidB, id: "blog-sabbath_rest-feedback", option: "Inspired me:5", dup: false }),
    `not json at all`,
  ]);
  refusedLines["data/polls_log.jsonl"] = [6];

  // ---- analytics.jsonl: views, events (one with a long error text), blog views, and bad lines
  const ev = (daysAgo: number, fields: Record<string, unknown>) =>
    JSON.stringify({ ts: day(now, daysAgo), ua: "Mozilla/5.0 (Linux; Android 10)", ip: "192.0.2.40", cid: cidA, meta: {}, ...fields });
  writeLines(path.join(data, "analytics.jsonl"), [
    ev(2, { type: "page.view", page: "home", path: "/", ref: "https://www.google.com/search?q=x" }),
    ev(2, { type: "page.view", page: "home", path: "/", cid: cidB }),
    ev(2, { type: "page.view", page: "merchstore", path: "/merchandise" }),
    ev(1, { type: "event", name: "merch.item.view", path: "/merchandise", meta: { item: "hoodie-classic" } }),
    ev(1, { type: "event", name: "client.error", path: "/event", meta: { message: "E".repeat(600), stack: { frames: ["a", "b"] } } }),
    ev(1, { type: "blog.view", slug: "salt-and-light", src: "site", path: "/api/track.php", cid: "" }),
    ev(1, { type: "blog.view", slug: "salt-and-light", src: "share", cid: "", ip: "192.0.2.41" }),
    ev(1, { type: "blog.view", slug: "sabbathrest", src: "site", cid: "", ip: "192.0.2.42" }),
    `{"ts": "2025-10-01T00:00:00+00:00", "type": "page.view"`,
    ev(1, { type: "purchase", name: "x" }),
    ev(200, { type: "page.view", page: "about", path: "/about" }),
  ]);
  refusedLines["data/analytics.jsonl"] = [9, 10];

  // ---- admin_activity.jsonl
  writeLines(path.join(data, "admin_activity.jsonl"), [
    JSON.stringify({ ts: "2025-09-04T08:00:00+00:00", type: "blogs.save", message: "Saved blogs.json", actorIp: "192.0.2.50", meta: { count: 4 } }),
    JSON.stringify({ ts: "2025-09-05T08:00:00+00:00", type: "series.save", message: "Saved series.json", actorIp: "192.0.2.50", meta: { count: 1 } }),
    `{"ts": "2025-09-06`,
    JSON.stringify({ ts: "2025-10-20T08:00:00+00:00", type: "merch.order.received", message: "Merch order mo_6b0105e25fd897.61794504", meta: { email: "pendo@example.org", delivery: "mail" } }),
  ]);
  refusedLines["data/admin_activity.jsonl"] = [3];

  // ---- the team badges file staff write from the old list, and the pictures under open/badges/
  const badgeFile = [
    ...OLD_BADGES.map((b) => ({ ...b, description: `${b.title}, ${b.subtitle}.`, earned: true, progress: 1, image: `open/badges/${b.id}.png` })),
    { id: "b6d56", title: "Team Lead", subtitle: "Articles and Blogs", category: "community", earned: true, ownerName: "Amani Wekesa", issuedAt: "Aug 19, 2025" },
    { id: "bad!id", title: "Broken", category: "dev", earned: false },
    { id: "b9999", title: "Unknown category", category: "sports", earned: false },
  ];
  const badgeLines = writeList(path.join(data, "team_badges.json"), badgeFile);
  refusedLines["data/team_badges.json"] = [badgeLines[10]!, badgeLines[11]!];
  // As in the old repository: one picture under public/open/badges/, the other eight bundled
  // by the old app from src/assets/badges/ (beside public/).
  const pictures = path.join(dir, "open", "badges");
  const bundled = path.join(path.dirname(dir), "src", "assets", "badges");
  fs.rmSync(path.join(path.dirname(dir), "src"), { recursive: true, force: true });
  fs.mkdirSync(pictures, { recursive: true });
  fs.mkdirSync(bundled, { recursive: true });
  for (const [i, b] of OLD_BADGES.entries()) {
    fs.writeFileSync(path.join(i === 0 ? pictures : bundled, `${b.id}.png`), await png(400 + i, 400 + i, `#${(0x224466 + i * 0x101010).toString(16).slice(0, 6)}`));
  }
  fs.writeFileSync(path.join(pictures, "b0000.png"), await png(64, 64, "#000000"));

  // ---- share pages the old site committed (a post's under an older slug)
  const share = path.join(dir, "share");
  fs.mkdirSync(path.join(share, "blogs"), { recursive: true });
  fs.mkdirSync(path.join(share, "merchandise"), { recursive: true });
  for (const b of OLD_BADGES) {
    fs.writeFileSync(path.join(share, `${b.id}.html`), SHARE_PAGE(`${b.title} — the organisation Badge`, b.subtitle, `https://old-site.example/share/${b.id}.html`, `https://old-site.example/open/badges/${b.id}.png`));
  }
  fs.writeFileSync(
    path.join(share, "blogs", "being-salt-and-light-in-secular-places.html"),
    SHARE_PAGE("Being Salt and Light in Secular Places — Street Light Outreach", "Faith at work.", "https://old-site.example/blogs/being-salt-and-light-in-secular-places", "hhttps://images.example.org/salt.jpg"),
  );
  fs.writeFileSync(path.join(share, "blogs", "receipts-of-righteousness.html"), SHARE_PAGE("Receipts of Righteousness", "", "https://old-site.example/blogs/receipts-of-righteousness", ""));
  // The series cover, committed under share/extra/ (series.json names it).
  fs.mkdirSync(path.join(share, "extra"), { recursive: true });
  fs.writeFileSync(path.join(share, "extra", "cis.jpg"), await sharp({ create: { width: 120, height: 80, channels: 3, background: "#553311" } }).jpeg().toBuffer());
  fs.writeFileSync(path.join(share, "merchandise", "hoodie-classic.html"), SHARE_PAGE("the organisation Street Hoodie", "", "https://old-site.example/merchandise?item=hoodie-classic", ""));

  return {
    dir,
    refusedLines,
    reviewLines,
    // Badge orders: 10 ids (one saved twice). Merch orders: 8 readable lines, one a copy of another, one broken beyond reading.
    oldOrders: { badge: 10, merch: 6 },
    expectAdded: {
      "data/series.json": 1,
      "data/blogs.json": 5,
      "data/merch.json": 2,
      "data/badge_orders.json": 10,
      "data/merch_orders.jsonl": 6,
      "data/subscribers.json": 2,
      "data/reactions_log.jsonl": 6,
      "data/reactions.json": 2,
      "data/polls.json": 2,
      "data/polls_log.jsonl": 5,
      "data/analytics.jsonl": 9,
      "data/admin_activity.jsonl": 3,
      "data/team_badges.json": 9,
      "open/badges/": 9,
      "share/": 1,
      "share/extra/": 1,
    },
  };
}
