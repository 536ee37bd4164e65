import crypto from "node:crypto";
import type { Db } from "~/lib/db/db.server";
import type { FileReport, ImportRun } from "./import-report";

export type { ImportRun } from "./import-report";

/**
 * Keeps an import's report (every file, each refusal with its line, reason and the line as
 * written, each record sent for review, each value cut with its full text): nothing the old
 * site held lives only in a terminal.
 */
export async function saveImportRun(db: Db, run: { startedAt: string; folder: string; added: number; refused: number; files: FileReport[] }) {
  const id = `${run.startedAt.replace(/[^0-9]/g, "").slice(0, 14)}-${crypto.randomBytes(3).toString("hex")}`;
  await db
    .insertInto("legacy_import_runs")
    .values({ id, started_at: run.startedAt, folder: run.folder, added: run.added, refused: run.refused, report: JSON.stringify(run.files) })
    .execute();
  return id;
}

/** The imports, newest first (a run's report that cannot be read shows no files, never fails the page). */
export async function listImportRuns(db: Db, limit = 50): Promise<ImportRun[]> {
  const rows = await db.selectFrom("legacy_import_runs").selectAll().orderBy("started_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map((r) => {
    let files: FileReport[] = [];
    try {
      const parsed = JSON.parse(r.report) as unknown;
      if (Array.isArray(parsed)) files = parsed as FileReport[];
    } catch {
      files = [];
    }
    return { id: r.id, startedAt: r.started_at, folder: r.folder, added: Number(r.added), refused: Number(r.refused), files };
  });
}
