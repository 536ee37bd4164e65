// `npm run backup [-- DIR]` and `npm run restore -- FILE` (app/lib/backup.server.ts): built
// server code, run once, with the same settings as `npm start` (DATA_DIR, DATABASE_PATH,
// BACKUP_DIR, BACKUP_KEEP).
import { pathToFileURL } from "node:url";
import { ensureBuild, entry } from "./ensure-build.mjs";

const [command, ...args] = process.argv.slice(2);
ensureBuild(command === "restore" ? "restore" : "backup");
process.env.NODE_ENV = "production";
const server = await import(pathToFileURL(entry).href);
try {
  if (command === "restore") await server.restoreCommand(args);
  else await server.backupCommand(args);
  process.exit(0);
} catch (e) {
  console.error(`[${command === "restore" ? "restore" : "backup"}] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
