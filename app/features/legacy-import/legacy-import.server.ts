import crypto from "node:crypto";
import fs from "node:fs";
import { logAction } from "~/features/activity/activity.server";
import { system } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { markContentChanged } from "~/lib/server/content-version.server";
import { clearPageCache } from "~/lib/http/page-cache.server";
import { summariseImportedEvents } from "../analytics/analytics-import.server";
import { DEFAULT_BADGES_FILE, importTeamBadgePictures, importTeamBadgesFile } from "./steps-badges.server";
import { checkSharePages, importCatalogueFile, importPostsFile, importSeriesFile, loadAliases } from "./steps-content.server";
import { importActivityFile, importAnalyticsFile, importPollFiles, importReactionFiles, importSubscribersFile } from "./steps-engagement.server";
import { importBadgeOrdersFile, importMerchOrdersFile } from "./steps-orders.server";
import { saveImportRun } from "./import-runs.server";
import { importShareExtras } from "./share-extras.server";
import { inSavepoint, newReport, oldSiteFolders, plural, reasonOf, type FileReport, type RunContext } from "./run.server";

export type { FileReport, Refusal } from "./run.server";

export type ImportOptions = {
  /** Count what would happen and write nothing. */
  dryRun?: boolean;
  /** The team badges file, absolute or relative to the folder (default data/team_badges.json). */
  badgesFile?: string;
  /** Called as each file is done (the command prints a line per file). */
  onFile?: (report: FileReport) => void;
};

export type ImportReport = { dryRun: boolean; files: FileReport[]; added: number; skipped: number; refused: number };

/** Thrown at the end of a dry run: everything it wrote is rolled back. */
class DryRunDone extends Error {}

type Kind = { name: string; run: (ctx: RunContext, db: Db) => Promise<FileReport | FileReport[]>; after?: (db: Db) => Promise<void> };

/**
 * The file kinds, in the order they depend on each other: series before posts, posts before the
 * reactions, polls and views that name them, the catalogue before the merch orders it prices,
 * badges before their pictures, and the share pages last (they must land on what came in).
 */
function kinds(): Kind[] {
  let pictures = new Map<string, string>();
  let ours = new Set<string>();
  return [
    { name: "series", run: importSeriesFile },
    { name: "posts", run: async (ctx, db) => (await loadAliases(ctx, db), importPostsFile(ctx, db)) },
    { name: "catalogue", run: importCatalogueFile },
    { name: "badge orders", run: importBadgeOrdersFile },
    { name: "merch orders", run: importMerchOrdersFile },
    { name: "subscribers", run: importSubscribersFile },
    { name: "reactions", run: importReactionFiles },
    { name: "polls", run: importPollFiles },
    { name: "analytics", run: importAnalyticsFile, after: async (db) => void (await summariseImportedEvents(db)) },
    { name: "activity", run: importActivityFile },
    {
      name: "team badges",
      run: async (ctx, db) => {
        const done = await importTeamBadgesFile(ctx, db);
        pictures = done.pictures;
        ours = done.ours;
        return done.report;
      },
    },
    { name: "team badge pictures", run: (ctx, db) => importTeamBadgePictures(ctx, db, pictures, ours) },
    { name: "share pages", run: checkSharePages },
    { name: "shared pictures", run: importShareExtras },
  ];
}

/**
 * Moves the old site's public/ folder in (`npm run import:legacy -- DIR`): every file kind the
 * old site kept, each in one transaction, idempotent (what an earlier run took is skipped).
 * A dry run does the same work in one transaction and rolls it all back, so its counts are the
 * import's own.
 */
export async function importLegacySite(db: Db, dir: string, opts: ImportOptions = {}): Promise<ImportReport> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`There is no folder at ${dir}.`);
  const startedAt = new Date().toISOString();
  const folders = oldSiteFolders(dir);
  const ctx: RunContext = {
    dir: folders.publicDir,
    repo: folders.repo,
    dryRun: !!opts.dryRun,
    salt: crypto.randomBytes(32),
    badgesFile: opts.badgesFile ?? DEFAULT_BADGES_FILE,
    reports: [],
    onFile: opts.onFile,
    aliases: new Map(),
  };
  const done = (r: FileReport) => {
    ctx.reports.push(r);
    ctx.onFile?.(r);
  };
  const runKind = async (kind: Kind, trx: Db) => {
    try {
      const out = await inSavepoint(trx, () => kind.run(ctx, trx));
      for (const r of Array.isArray(out) ? out : [out]) done(r);
    } catch (e) {
      // A kind that fails as a whole writes nothing; the others go on.
      const r = newReport(kind.name, kind.name);
      r.refused.push({ line: 0, reason: `nothing of it was imported: ${reasonOf(e)}` });
      done(r);
      return false;
    }
    return true;
  };

  if (ctx.dryRun) {
    await db
      .transaction()
      .execute(async (trx) => {
        for (const kind of kinds()) await runKind(kind, trx);
        throw new DryRunDone();
      })
      .catch((e) => {
        if (!(e instanceof DryRunDone)) throw e;
      });
  } else {
    for (const kind of kinds()) {
      const ok = await db.transaction().execute((trx) => runKind(kind, trx));
      if (ok && kind.after) await kind.after(db);
    }
  }

  const report: ImportReport = {
    dryRun: ctx.dryRun,
    files: ctx.reports,
    added: ctx.reports.reduce((n, r) => n + r.added, 0),
    skipped: ctx.reports.reduce((n, r) => n + r.skipped, 0),
    refused: ctx.reports.reduce((n, r) => n + r.refused.length, 0),
  };
  if (!ctx.dryRun) {
    // Every run's report is kept for staff (/admin/imports), refusals and cuts with their full text.
    await saveImportRun(db, { startedAt, folder: ctx.dir, added: report.added, refused: report.refused, files: report.files });
    clearPageCache();
    // The running site is another process: on SQLite only this signal reaches it.
    markContentChanged();
    if (report.added > 0) {
      await logAction(db, system("old site import (npm run import:legacy)"), {
        type: "legacy.import",
        message: `Old site imported: ${plural(report.added, "record")} added, ${report.skipped} already here, ${report.refused} refused`,
        meta: { added: report.added, skipped: report.skipped, refused: report.refused, files: report.files.map((f) => ({ file: f.file, added: f.added, skipped: f.skipped, refused: f.refused.length })) },
      });
    }
  }
  return report;
}

/** One line per file, then its refusals and notes, as the command prints them. */
export function describeFile(r: FileReport, dryRun = false): string[] {
  const head = `${r.file.padEnd(28)} ${r.records}: `;
  if (r.missing) return [`${head}not in the folder, nothing to import`];
  const lines = [`${head}${r.added} ${dryRun ? "would be added" : "added"}, ${r.skipped} already here, ${r.refused.length} refused`];
  for (const x of r.refused) lines.push(`    ${x.line > 0 ? `line ${x.line}: ` : ""}refused: ${x.reason}`);
  for (const x of r.review) lines.push(`    ${x.line > 0 ? `line ${x.line}: ` : ""}for review: ${x.reason}`);
  for (const x of r.cut) lines.push(`    ${x.line > 0 ? `line ${x.line}: ` : ""}cut: ${x.what} (the full text is in the report at /admin/imports)`);
  for (const n of r.notes) lines.push(`    note: ${n}`);
  return lines;
}
