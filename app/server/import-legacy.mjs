// `npm run import:legacy -- DIR [--dry-run] [--badges FILE] [--badges-help]`
// (app/features/legacy-import): built server code, run once, with the same settings as
// `npm start` (DATA_DIR, DATABASE_PATH, DATABASE_URL), as backup.mjs runs its commands.
import { pathToFileURL } from "node:url";
import { ensureBuild, entry } from "./ensure-build.mjs";

ensureBuild("import");
process.env.NODE_ENV = "production";
const server = await import(pathToFileURL(entry).href);
// What the tool prints comes from files and arguments: control characters are escaped, as in the server's log.
server.keepLogLinesWhole();
try {
  await server.importLegacyCommand(process.argv.slice(2));
  process.exit(0);
} catch (e) {
  console.error(`[import] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
