import fs from "node:fs";
import path from "node:path";
import { addPostAlias, allPostAliases } from "../blog/aliases.server";
import { parseTags } from "../blog/blog";
import { importPost, importSeries, postSlugs } from "../blog/blog-import.server";
import { BlogPostSchema } from "../blog/blog.schema";
import { SERIES_ID_PATTERN } from "../blog/series";
import { checkSeries } from "../blog/series.schema";
import type { MerchColor, MerchItem } from "../merch/merch";
import { catalogueItems, importMerchItem } from "../merch/merch-import.server";
import { MerchItemSchema } from "../merch/merch.schema";
import { findTeamBadgeRow } from "../team-badges/team-badges.server";
import { DomainError } from "~/lib/core/domain-error";
import type { Db } from "~/lib/db/db.server";
import { isHttpsUrl, isImageAddress } from "~/lib/core/rules";
import { asObject, readJsonArray, text } from "./legacy-files";
import { removeUntouchedSeedItems, removeUntouchedSeedPosts } from "./demo-content.server";
import { FileStep, plural, postSlugFor, readOldFile, reasonOf, toSlug, trackerSlug, type RunContext } from "./run.server";

const refuse = (message: string): never => {
  throw new DomainError("invalid", message);
};

/** Reads a JSON list file into its records, or says why the whole file cannot be read. */
export function listOf(step: FileStep, textOf: string) {
  try {
    return readJsonArray(textOf);
  } catch (e) {
    step.refuse((e as { line?: number }).line ?? 1, `the whole file: ${reasonOf(e)}`);
    return [];
  }
}

// ---------------------------------------------------------------- series

export async function importSeriesFile(ctx: RunContext, db: Db) {
  const step = await FileStep.open(ctx, db, "series", "data/series.json", "series");
  const body = readOldFile(ctx, step.report.file);
  if (body === null) step.missing();
  else {
    for (const { line, value } of listOf(step, body)) {
      const o = asObject(value);
      if (!o) {
        step.refuse(line, "not a series (an object with seriesId and title)");
        continue;
      }
      const id = text(o.seriesId);
      if (id && step.seen(id)) {
        step.skipped();
        continue;
      }
      await step.record(line, async () => {
        const checked = checkSeries(o);
        if (!checked.ok) refuse(`series ${id || "(no id)"} ${checked.problem}`);
        const item = (checked as { item: Parameters<typeof importSeries>[1] }).item;
        const done = await importSeries(db, item);
        if (done === "added") step.added();
        else step.skipped();
        step.take(item.seriesId, item.seriesId);
      });
    }
  }
  await step.close();
  return step.report;
}

// ---------------------------------------------------------------- posts

const HOSTILE_HTML = /<\s*(script|iframe|object|embed|style)\b|\son[a-z]+\s*=|javascript:/i;
const ORDER_FIELDS = ["episodeNumber", "seriesOrder", "seriesIndex", "seriesPart", "part"] as const;

/** When the old site says a post was published (publishedAt, else its date), as a time; null when it cannot tell. */
function publishedOf(o: Record<string, unknown>): number | null {
  for (const v of [o.publishedAt, o.date]) {
    const ms = Date.parse(text(v));
    if (text(v) && Number.isFinite(ms)) return ms;
  }
  return null;
}

/** A value longer than this site keeps: shortened, its full text kept in the import's report. */
type CutFn = (what: string, full: string) => void;
const cutTo = (value: string, max: number, what: string, cut: CutFn) => {
  if (value.length <= max) return value;
  cut(`${what}: ${value.length} characters, ${max} kept`, value);
  return value.slice(0, max);
};
/** A list longer than this site keeps (or with items too long): shortened, the full list kept in the report. */
function listCut(values: string[], maxItems: number, maxLength: number, what: string, cut: CutFn) {
  const kept = values.map((v) => v.slice(0, maxLength)).slice(0, maxItems);
  if (values.length > maxItems || values.some((v) => v.length > maxLength)) cut(`${what}: ${values.length} given, ${kept.length} kept (each at most ${maxLength} characters)`, values.join(", "));
  return kept;
}


/** The old post's fields as this site takes them; values it cannot use are left out, with a note; values cut, with their full text. */
function cleanPost(o: Record<string, unknown>, slug: string, notes: string[], cut: CutFn = () => {}) {
  const drop = (field: string, value: string, why: string) => {
    if (value) notes.push(`post ${slug}: ${field} "${value.slice(0, 60)}" left out (${why})`);
    return "";
  };
  const url = text(o.url);
  const image = text(o.image);
  const audio = text(o.audioVideoId);
  const seriesId = text(o.seriesId ?? o.series);
  const tags = listCut((Array.isArray(o.tags) ? o.tags.map(text) : parseTags(text(o.tags))).filter(Boolean), 12, 30, `post ${slug}: tags`, cut);
  const order = ORDER_FIELDS.map((f) => o[f]).find((v) => typeof v === "number" || /^\d+$/.test(text(v)));
  return {
    slug,
    title: text(o.title),
    summary: cutTo(text(o.summary), 600, `post ${slug}: summary`, cut),
    author: cutTo(text(o.author), 80, `post ${slug}: author`, cut),
    // The day it was published (publishedAt; the old posts' own date is often just the year).
    date: cutTo(Number.isFinite(Date.parse(text(o.publishedAt))) ? new Date(Date.parse(text(o.publishedAt))).toISOString().slice(0, 10) : text(o.date), 40, `post ${slug}: date`, cut),
    tags,
    image: image && !isImageAddress(image) ? drop("image", image, "not a path on this site or an https address") : image,
    url: url && !isHttpsUrl(url) ? drop("url", url, "not an https address") : url,
    audioVideoId: audio && !/^[A-Za-z0-9_-]{6,20}$/.test(audio) ? drop("audioVideoId", audio, "not a video id") : audio || undefined,
    contentHtml: typeof o.contentHtml === "string" ? o.contentHtml : undefined,
    seriesId: seriesId && !SERIES_ID_PATTERN.test(seriesId) ? drop("seriesId", seriesId, "not a series id") : seriesId || undefined,
    seriesOrder: order === undefined ? null : Number(order),
  };
}

export async function importPostsFile(ctx: RunContext, db: Db) {
  const step = await FileStep.open(ctx, db, "post", "data/blogs.json", "posts");
  const body = readOldFile(ctx, step.report.file);
  if (body === null) step.missing();
  else {
    // Newest first, as the old site listed them (by publishedAt, else date; undated ones last,
    // each group in the file's order): each post is added after those before it.
    let demoChecked = false;
    const entries = listOf(step, body)
      .map((e, i) => ({ ...e, i, at: asObject(e.value) ? publishedOf(asObject(e.value)!) : null }))
      .sort((a, b) => (a.at === null ? 1 : 0) - (b.at === null ? 1 : 0) || (b.at ?? 0) - (a.at ?? 0) || a.i - b.i);
    for (const { line, value } of entries) {
      const o = asObject(value);
      if (!o) {
        step.refuse(line, "not a post (an object with title, url and slug)");
        continue;
      }
      const raw = text(o.slug);
      if (raw && step.seen(raw)) {
        step.skipped();
        continue;
      }
      await step.record(line, async () => {
        if (!raw) refuse("a post with no slug");
        if (text(o.title) && !demoChecked) {
          demoChecked = true;
          const removed = await removeUntouchedSeedPosts(db);
          if (removed.length) step.note(`${plural(removed.length, "demo post")} of the seed removed (never changed by staff): ${removed.join(", ")}`);
        }
        if (!text(o.title)) refuse(`post ${raw} has no title`);
        const slug = toSlug(raw);
        if (!slug) refuse(`post slug "${raw}" has no letters or digits`);
        const notes: string[] = [];
        const cuts: [string, string][] = [];
        const parsed = BlogPostSchema.safeParse(cleanPost(o, slug, notes, (what, full) => cuts.push([what, full])));
        if (!parsed.success) refuse(`post ${raw}: ${parsed.error.issues[0]?.message ?? "not valid"}`);
        const post = parsed.data!;
        const done = await importPost(db, { ...post, seriesOrder: cleanPost(o, slug, []).seriesOrder });
        if (done === "added") {
          step.added();
          for (const n of notes) step.note(`line ${line}: ${n}`);
          for (const [what, full] of cuts) step.cut(line, what, full);
          if (post.contentHtml && HOSTILE_HTML.test(post.contentHtml)) step.note(`line ${line}: post ${slug}: HTML cleaned as a staff save cleans it (scripts, event handlers and javascript: links removed)`);
        } else step.skipped();
        // Its old addresses: as written (sabbath_rest) and as the old tracker stored it (sabbathrest).
        for (const old of new Set([raw, trackerSlug(raw).toLowerCase()])) {
          if (old && old !== slug) {
            await addPostAlias(db, old, slug);
            ctx.aliases.set(old, slug);
          }
        }
        if (raw !== slug && done === "added") step.note(`line ${line}: post ${raw} is now /blogs/${slug}; its old address moves there`);
        step.take(raw, slug);
      });
    }
  }
  await step.close();
  return step.report;
}

/** The aliases already here (an earlier import's), for the steps that map old slugs. */
export async function loadAliases(ctx: RunContext, db: Db) {
  for (const [old, slug] of await allPostAliases(db)) ctx.aliases.set(old, slug);
}

// ---------------------------------------------------------------- catalogue

function cleanItem(o: Record<string, unknown>, notes: string[], cut: CutFn = () => {}): MerchItem {
  const name = text(o.name);
  const slug = toSlug(text(o.slug) || name, 60);
  const priceText = typeof o.price === "number" ? o.price : Number(text(o.price).replace(/,/g, ""));
  const image = text(o.image);
  const colors: MerchColor[] = (Array.isArray(o.colors) ? o.colors : []).flatMap((c) => {
    const col = asObject(c);
    if (!col) return [];
    const label = cutTo(text(col.label), 40, `item ${slug}: colour label`, cut) || text(col.swatch) || "Colour";
    const swatch = /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/.test(text(col.swatch)) ? text(col.swatch) : "#000000";
    const img = text(col.image);
    return [{ label, swatch, ...(img && isImageAddress(img) ? { image: img } : {}) }];
  });
  if (image && !isImageAddress(image)) notes.push(`item ${slug}: image "${image.slice(0, 60)}" left out (not a path on this site or an https address)`);
  return {
    id: text(o.id) || slug,
    name,
    slug,
    description: cutTo(text(o.description), 1000, `item ${slug}: description`, cut),
    price: Number.isFinite(priceText) ? Math.round(priceText) : NaN,
    currency: (text(o.currency) || "KES").toUpperCase(),
    impact: cutTo(text(o.impact), 300, `item ${slug}: impact`, cut),
    image: image && isImageAddress(image) ? image : "",
    tags: listCut((Array.isArray(o.tags) ? o.tags.map(text) : []).filter(Boolean), 12, 30, `item ${slug}: tags`, cut),
    available: o.available !== false,
    colors: colors.length > 12 ? (cut(`item ${slug}: colours: ${colors.length} given, 12 kept`, colors.map((c) => c.label).join(", ")), colors.slice(0, 12)) : colors,
    sizes: listCut((Array.isArray(o.sizes) ? o.sizes.map(text) : []).filter(Boolean), 12, 20, `item ${slug}: sizes`, cut),
  };
}

export async function importCatalogueFile(ctx: RunContext, db: Db) {
  const step = await FileStep.open(ctx, db, "merch_item", "data/merch.json", "catalogue items");
  const body = readOldFile(ctx, step.report.file);
  let demoChecked = false;
  if (body === null) step.missing();
  else {
    for (const { line, value } of listOf(step, body)) {
      const o = asObject(value);
      if (!o) {
        step.refuse(line, "not an item (an object with name, slug and price)");
        continue;
      }
      const key = text(o.id) || text(o.slug);
      if (key && step.seen(key)) {
        step.skipped();
        continue;
      }
      await step.record(line, async () => {
        if (!text(o.name) || !text(o.slug)) refuse(`item ${key || "(no id)"} is missing its name or slug`);
        if (!demoChecked) {
          demoChecked = true;
          const removed = await removeUntouchedSeedItems(db);
          if (removed.length) step.note(`${plural(removed.length, "demo item")} of the seed removed (never changed by staff, never ordered): ${removed.join(", ")}`);
        }
        const notes: string[] = [];
        const cuts: [string, string][] = [];
        const parsed = MerchItemSchema.safeParse(cleanItem(o, notes, (what, full) => cuts.push([what, full])));
        if (!parsed.success) refuse(`item ${key}: ${parsed.error.issues[0]?.message ?? "not valid"}`);
        const done = await importMerchItem(db, parsed.data as MerchItem);
        if (done === "added") {
          step.added();
          for (const n of notes) step.note(`line ${line}: ${n}`);
          for (const [what, full] of cuts) step.cut(line, what, full);
        } else step.skipped();
        step.take(key, parsed.data!.id);
      });
    }
  }
  await step.close();
  return step.report;
}

// ---------------------------------------------------------------- share pages

const OG_TITLE = /<meta\s+[^>]*property=["']og:title["'][^>]*content=["']([^"']*)["']|<meta\s+[^>]*content=["']([^"']*)["'][^>]*property=["']og:title["']/i;
const unescapeHtml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39|#x27|apos);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", apos: "'" })[e] ?? _);

function htmlFiles(ctx: RunContext, rel: string): string[] {
  try {
    return fs
      .readdirSync(path.join(ctx.dir, rel), { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".html"))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * The old site's share pages (share/{id}.html, share/blogs/{slug}.html,
 * share/merchandise/{slug}.html), which people shared: each must land on a record here. A post
 * page under a slug no post has is matched to a post by its title (the old generator named some
 * pages by an older slug) and that slug becomes the post's alias.
 */
export async function checkSharePages(ctx: RunContext, db: Db) {
  const step = await FileStep.open(ctx, db, "share_page", "share/", "share pages");
  const badges = htmlFiles(ctx, "share");
  const posts = htmlFiles(ctx, "share/blogs");
  const items = htmlFiles(ctx, "share/merchandise");
  if (badges.length + posts.length + items.length === 0) step.missing();
  for (const name of badges) {
    const id = name.slice(0, -5);
    if (await findTeamBadgeRow(db, id)) step.skipped();
    else step.refuse(0, `share/${name}: no team badge here has the id ${id} (add it to the badges file)`);
  }
  const slugs = await postSlugs(db);
  const cards = await db.selectFrom("blog_posts").select(["slug", "title"]).execute();
  for (const name of posts) {
    const old = name.slice(0, -5);
    if (postSlugFor(ctx, slugs, old)) {
      step.skipped();
      continue;
    }
    const title = unescapeHtml((OG_TITLE.exec(readOldFile(ctx, `share/blogs/${name}`) ?? "")?.slice(1).find(Boolean) ?? "").trim());
    // The old pages' titles end with the site's name after a dash ('Title — Site name'): matched with it or without.
    const bare = title.replace(/\s+[—–-]\s+[^—–]+$/, "").trim();
    const same = (c: { title: string }) => [title, bare].some((t) => t && c.title.trim().toLowerCase() === t.toLowerCase());
    const match = title ? cards.find(same) : undefined;
    if (!match) {
      step.refuse(0, `share/blogs/${name}: no post here has the slug ${old}${title ? ` or the title "${title}"` : ""}`);
      continue;
    }
    await addPostAlias(db, old, match.slug);
    ctx.aliases.set(old, match.slug);
    step.added();
    step.note(`share/blogs/${name} names the post ${match.slug} by its title: its address moves there`);
  }
  const catalogue = await catalogueItems(db);
  for (const name of items) {
    const slug = name.slice(0, -5);
    if (catalogue.some((i) => i.slug === slug)) step.skipped();
    else step.refuse(0, `share/merchandise/${name}: no item here has the slug ${slug}`);
  }
  await step.close();
  return step.report;
}
