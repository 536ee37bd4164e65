import fs from "node:fs";
import path from "node:path";
import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { processBadgeImage } from "../team-badges/badge-image.server";
import { BADGE_ID_PATTERN, CATEGORIES, parseIssuedDate } from "../team-badges/team-badges";
import { importTeamBadge, importTeamBadgePicture, removeUntouchedSeedBadges, type ImportedBadge } from "../team-badges/team-badges-import.server";
import { asObject, phpBool, readJsonMembers, text, type LocatedMember } from "./legacy-files";
import { FileStep, plural, readOldBytes, readRepoBytes, reasonOf, type RunContext } from "./run.server";

/** Where the team badges file is looked for in the old site's folder, unless --badges names one. */
export const DEFAULT_BADGES_FILE = "data/team_badges.json";

/** What `npm run import:legacy -- --badges-help` prints (and the import, when the file is missing). */
export const BADGES_FILE_HELP = `The team badges file: the old site kept its team badges in its code (the BADGES list in
src/pages/badges/index.tsx), not in a data file. Copy that list into a JSON file, one object
per badge, and put it at public/${DEFAULT_BADGES_FILE} (or name it with --badges FILE):

[
  {
    "id": "b6d56",
    "title": "Team Lead",
    "subtitle": "Articles and Blogs",
    "category": "community",
    "description": "Leads the articles and blogs team.",
    "earned": true,
    "progress": 1,
    "ownerName": "Purity Moraa",
    "issuedAt": "Aug 19, 2025",
    "holderEmail": "",
    "image": "open/badges/b6d56.png"
  }
]

- id: required, the id holders shared (/badges?id=b6d56, /share/b6d56.html): letters, digits,
  - and _, at most 40. It stays the badge's id here, for good.
- title: required. subtitle: the team. description: optional.
- category: dev, evangelism, media or community.
- earned: true (the default) for an issued badge, which then needs ownerName and issuedAt
  ('Aug 19, 2025', '19 Aug 2025' or '2025-08-19'). progress: for a badge not earned yet,
  0 to 1 (as the old site wrote it) or 0 to 100.
- holderEmail: optional; names the holder, hashed, in the badge's Open Badges record.
- image: optional; the badge's picture in the old site's folder. Without it,
  open/badges/{id}.png is used when it is there; without a picture the badge is drawn.

Once real badges are imported, the demo badges the site started with are removed (those
staff never changed).`;

const refuse = (message: string): never => {
  throw new DomainError("invalid", message);
};

const CATEGORY_KEYS = CATEGORIES.filter((c) => c.key !== "all").map((c) => c.key as string);
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** '12 Mar 2025', as this site writes issue dates. */
function issueDate(value: string): string | null {
  const d = parseIssuedDate(value);
  if (!d) return null;
  return `${Number(d.iso.slice(8, 10))} ${MONTHS[d.month - 1]} ${d.year}`;
}

function badgeOf(o: Record<string, unknown>): ImportedBadge {
  const id = text(o.id).toLowerCase();
  if (!id) refuse("a badge with no id");
  if (!BADGE_ID_PATTERN.test(id)) refuse(`badge id "${id.slice(0, 60)}" may use letters, digits, - and _ only (at most 40)`);
  const title = text(o.title);
  if (!title) refuse(`badge ${id} has no title`);
  if (title.length > 80) refuse(`badge ${id}: the title is over 80 characters`);
  const category = text(o.category).toLowerCase();
  if (!CATEGORY_KEYS.includes(category)) refuse(`badge ${id}: category "${category.slice(0, 20)}" is not one of ${CATEGORY_KEYS.join(", ")}`);
  const earned = o.earned === undefined ? true : phpBool(o.earned);
  const ownerName = text(o.ownerName).slice(0, 80);
  const issuedAt = text(o.issuedAt);
  const issued = issuedAt ? issueDate(issuedAt) : null;
  if (earned && !ownerName) refuse(`badge ${id} is earned but names no holder (ownerName)`);
  if (earned && !issued) refuse(`badge ${id}: issuedAt "${issuedAt.slice(0, 30)}" is not a date such as Aug 19, 2025`);
  const email = text(o.holderEmail).toLowerCase();
  if (email && !/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email)) refuse(`badge ${id}: holderEmail "${email.slice(0, 60)}" is not an email address`);
  const p = typeof o.progress === "number" ? o.progress : Number(text(o.progress) || 0);
  return {
    id,
    title,
    subtitle: text(o.subtitle).slice(0, 120),
    category: category as ImportedBadge["category"],
    description: text(o.description).slice(0, 600),
    earned,
    progress: Math.max(0, Math.min(100, Math.round(Number.isFinite(p) ? (p <= 1 ? p * 100 : p) : 0))),
    ownerName,
    holderEmail: email,
    issuedAt: issued ?? "",
    icon: text(o.icon).slice(0, 40),
  };
}

/** The badges file's records: a list, or {"badges": [...]} / {"items": [...]}. */
function badgeRecords(step: FileStep, body: string): LocatedMember[] {
  try {
    if (body.trimStart().startsWith("[")) return readJsonMembers(`{"items":${body}}`, "items");
    const inner = readJsonMembers(body, "badges");
    return inner.length ? inner : readJsonMembers(body, "items");
  } catch (e) {
    step.refuse((e as { line?: number }).line ?? 1, `the whole file: ${reasonOf(e)}`);
    return [];
  }
}

/**
 * The old site's team badges, under their own ids. Once the file holds a badge, the seed's demo
 * badges that staff never changed are removed first (and the seed never runs later), so an old
 * id the demo happened to use (b5692) goes to the real badge.
 */
export async function importTeamBadgesFile(ctx: RunContext, db: Db): Promise<{ report: FileStep["report"]; pictures: Map<string, string>; ours: Set<string> }> {
  const rel = path.isAbsolute(ctx.badgesFile) ? ctx.badgesFile : path.join(ctx.dir, ctx.badgesFile);
  const step = await FileStep.open(ctx, db, "team_badge", path.relative(ctx.dir, rel).startsWith("..") ? rel : path.relative(ctx.dir, rel), "team badges");
  const pictures = new Map<string, string>();
  /** The badges the file brought in (this run or before): only they take pictures from the old folder. */
  const ours = new Set<string>();
  let body: string | null = null;
  try {
    body = fs.readFileSync(rel, "utf8");
  } catch {
    body = null;
  }
  if (body === null) {
    step.missing();
    await step.close();
    return { report: step.report, pictures, ours };
  }
  const records = badgeRecords(step, body);
  let seedChecked = false;
  for (const { line, value } of records) {
    const o = asObject(value);
    if (!o) {
      step.refuse(line, "not a badge (an object with id and title)");
      continue;
    }
    const id = text(o.id).toLowerCase();
    const image = text(o.image);
    if (id && BADGE_ID_PATTERN.test(id)) pictures.set(id, image || `open/badges/${text(o.id)}.png`);
    if (id && step.seen(id)) {
      step.skipped();
      ours.add(id);
      continue;
    }
    await step.record(line, async () => {
      const badge = badgeOf(o);
      if (!seedChecked) {
        seedChecked = true;
        const removed = await removeUntouchedSeedBadges(db);
        if (removed.length) step.note(`${plural(removed.length, "demo badge")} of the seed removed (never changed by staff): ${removed.join(", ")}`);
      }
      const done = await importTeamBadge(db, badge);
      if (done === "added") step.added();
      else if (done === "exists") step.skipped();
      else refuse(`badge ${badge.id}: that id is taken here by another badge (${done.taken.title}${done.taken.owner_name ? `, ${done.taken.owner_name}` : ""}) that staff have changed; ids are never reused`);
      step.take(badge.id, badge.id);
      ours.add(badge.id);
    });
  }
  await step.close();
  return { report: step.report, pictures, ours };
}

/**
 * The badges' pictures (open/badges/{id}.png, or the file a badge names), checked and
 * re-encoded as an upload is. A picture with no badge here is refused.
 */
export async function importTeamBadgePictures(ctx: RunContext, db: Db, named: Map<string, string>, ours: Set<string>) {
  const step = await FileStep.open(ctx, db, "team_badge_picture", "open/badges/", "team badge pictures");
  const files = new Map<string, string>();
  try {
    for (const e of fs.readdirSync(path.join(ctx.dir, "open/badges"), { withFileTypes: true })) {
      const m = /^(.+)\.(png|jpe?g|webp|svg)$/i.exec(e.name);
      if (e.isFile() && m) files.set(m[1]!.toLowerCase(), `open/badges/${e.name}`);
    }
  } catch {
    // No open/badges/ folder: only pictures the badges file names.
  }
  for (const [id, rel] of named) if (readOldBytes(ctx, rel)) files.set(id, rel);
  // The other team pictures live in the repository's src/assets/badges/ (bundled by the old app):
  // taken for a badge that has none under public/.
  const bundled = new Map<string, string>();
  if (ctx.repo) {
    try {
      for (const e of fs.readdirSync(path.join(ctx.repo, "src/assets/badges"), { withFileTypes: true })) {
        const m = /^(.+)\.(png|jpe?g|webp)$/i.exec(e.name);
        const id = m?.[1]!.toLowerCase();
        if (e.isFile() && id && !files.has(id) && ours.has(id)) bundled.set(id, `src/assets/badges/${e.name}`);
      }
    } catch {
      // No src/assets/badges/: nothing more to find.
    }
  }
  for (const [id, rel] of bundled) files.set(id, `../${rel}`);
  if (files.size === 0) step.missing();
  for (const [id, rel] of [...files].sort()) {
    if (step.seen(id)) {
      step.skipped();
      continue;
    }
    await step.record(0, async () => {
      if (!ours.has(id)) refuse(`${rel}: no badge of the badges file has the id ${id}`);
      const bytes = (rel.startsWith("../src/") ? readRepoBytes(ctx, rel.slice(3)) : readOldBytes(ctx, rel)) ?? refuse(`${rel}: cannot be read`);
      let png: Buffer;
      try {
        png = await processBadgeImage(bytes);
      } catch (e) {
        return refuse(`${rel}: ${reasonOf(e)}`);
      }
      const done = await importTeamBadgePicture(db, id, png, { store: !ctx.dryRun });
      if (done === "no-badge") refuse(`${rel}: no team badge here has the id ${id}`);
      if (done === "added") step.added();
      else step.skipped();
      step.take(id, id);
    });
  }
  await step.close();
  return step.report;
}
