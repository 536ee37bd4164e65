// `npm run backup [-- DIR]`, `npm run restore -- FILE` (app/lib/db/backup.server.ts) and
// `npm run db:copy -- postgres://…` (app/lib/db/copy-database.server.ts): built
// server code, run once, with the same settings as `npm start` (DATA_DIR, DATABASE_PATH,
// BACKUP_DIR, BACKUP_KEEP).
import { pathToFileURL } from "node:url";
import { ensureBuild, entry } from "./ensure-build.mjs";

const [command, ...args] = process.argv.slice(2);
ensureBuild(command);
process.env.NODE_ENV = "production";
const server = await import(pathToFileURL(entry).href);
// What the tool prints comes from files and arguments: control characters are escaped, as in the server's log.
server.keepLogLinesWhole();
try {
  if (command === "restore") await server.restoreCommand(args);
  else if (command === "copy") await server.copyCommand(args);
  else await server.backupCommand(args);
  process.exit(0);
} catch (e) {
  console.error(`[${command}] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
