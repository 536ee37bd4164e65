// `npm run rotate-secrets` (app/lib/db/rotate-secrets.server.ts): built server code, run once, with
// the same settings as `npm start` (DATA_DIR, DATABASE_PATH or DATABASE_URL, ADMIN_KEY).
import { pathToFileURL } from "node:url";
import { ensureBuild, entry } from "./ensure-build.mjs";

ensureBuild("rotate-secrets");
process.env.NODE_ENV = "production";
const server = await import(pathToFileURL(entry).href);
try {
  const done = await server.rotateSecretsCommand();
  console.log(`[rotate-secrets] new session secret; ${done.sessionsEnded} staff session(s) ended.`);
  if (done.adminKey) console.log(`[rotate-secrets] new admin key (shown once, give it to staff by hand): ${done.adminKey}`);
  else console.log("[rotate-secrets] ADMIN_KEY is set in the environment: change it there too.");
  console.log("[rotate-secrets] restart the site now so every process uses the new secrets.");
  process.exit(0);
} catch (e) {
  console.error(`[rotate-secrets] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
