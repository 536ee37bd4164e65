import path from "node:path";
import { closeDb, getDb } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { describeFile, importLegacySite } from "./legacy-import.server";
import { BADGES_FILE_HELP, DEFAULT_BADGES_FILE } from "./steps-badges.server";

export const IMPORT_USAGE = `npm run import:legacy -- DIR [--dry-run] [--badges FILE] [--badges-help]

DIR is the old site's repository (holding public/ and src/) or its public/ folder (the one
holding data/, open/badges/ and share/); team pictures are also read from src/assets/badges/.
Each run's report (refusals with their lines, orders sent for review, values cut) is kept at /admin/imports.
--dry-run      count what would be added, skipped and refused, per file; write nothing
--badges FILE  the team badges file (default DIR/${DEFAULT_BADGES_FILE})
--badges-help  print the team badges file's shape`;

/**
 * `npm run import:legacy -- DIR`: the old site's files into this site's database (DATABASE_URL,
 * or DATABASE_PATH / DATA_DIR as `npm start` uses them). A line per file, then a summary.
 */
export async function importLegacyCommand(args: string[]) {
  // The log is one entry per line (control characters escaped, app/lib/server/log-line.server.ts):
  // text of several lines is printed a line at a time.
  const print = (text: string) => {
    for (const line of text.split("\n")) console.log(line);
  };
  if (args.includes("--badges-help")) {
    print(BADGES_FILE_HELP);
    return;
  }
  const dryRun = args.includes("--dry-run");
  const at = args.indexOf("--badges");
  const badgesFile = at >= 0 ? args[at + 1] : undefined;
  if (at >= 0 && (!badgesFile || badgesFile.startsWith("--"))) throw new Error("Say which file: --badges FILE.");
  const dir = args.find((a, i) => !a.startsWith("--") && !(at >= 0 && i === at + 1));
  if (!dir) {
    print(IMPORT_USAGE);
    throw new Error("Say which folder to import.");
  }
  const config = env();
  process.umask(0o077);
  console.log(`[import] the old site at ${path.resolve(dir)} into ${config.databaseUrl ? "the PostgreSQL database at DATABASE_URL" : config.databasePath}${dryRun ? " (dry run: nothing is written)" : ""}`);
  const db = await getDb();
  try {
    let badgesMissing = false;
    const report = await importLegacySite(db, dir, {
      dryRun,
      // A relative name is in the folder being imported, as the default file is.
      badgesFile: badgesFile ? path.resolve(dir, badgesFile) : undefined,
      onFile: (r) => {
        if (r.records === "team badges" && r.missing) badgesMissing = true;
        for (const line of describeFile(r, dryRun)) console.log(`[import] ${line}`);
      },
    });
    if (badgesMissing) print(`\n${BADGES_FILE_HELP}\n`);
    console.log(
      `[import] ${dryRun ? "dry run" : "done"}: ${report.added} ${dryRun ? "would be added" : "added"}, ${report.skipped} already here, ${report.refused} refused` +
        (dryRun ? ". Nothing was written; run again without --dry-run to import." : report.added > 0 ? ". Running it again adds nothing." : "."),
    );
  } finally {
    await closeDb();
  }
}
