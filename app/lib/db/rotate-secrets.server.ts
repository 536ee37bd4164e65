import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { closeDb, getDb } from "./db.server";
import { isPostgres } from "./dialect.server";
import { env, isOneClassKey } from "../server/env.server";
import { ensurePrivateDir } from "../server/files.server";

const fresh = () => {
  let value: string;
  do value = crypto.randomBytes(24).toString("base64url");
  while (isOneClassKey(value));
  return value;
};

/**
 * `npm run rotate-secrets` (after a breach, docs/breach-runbook.md): a new session secret and
 * a new generated admin key (where the database or DATA_DIR keeps them; an ADMIN_KEY set in the
 * environment must be changed there), and every staff session ended. The Open Badges signing
 * key stays: issued badges are verified with it. Restart the site afterwards.
 */
export async function rotateSecretsCommand(): Promise<{ adminKey: string | null; sessionsEnded: number }> {
  const config = env();
  const db = await getDb();
  try {
    const adminKey = config.adminKey ? null : fresh();
    const secrets: Record<string, string> = { "session-secret": fresh(), ...(adminKey ? { "admin-key": adminKey } : {}) };
    if (isPostgres(db)) {
      for (const [name, value] of Object.entries(secrets)) {
        await db
          .insertInto("site_secrets")
          .values({ name, value, created_at: new Date().toISOString() })
          .onConflict((oc) => oc.column("name").doUpdateSet({ value, created_at: new Date().toISOString() }))
          .execute();
      }
    } else {
      ensurePrivateDir(config.dataDir);
      for (const [name, value] of Object.entries(secrets)) {
        const file = path.join(config.dataDir, name);
        fs.writeFileSync(`${file}.new`, `${value}\n`, { mode: 0o600 });
        fs.renameSync(`${file}.new`, file);
      }
    }
    const ended = await db.deleteFrom("staff_sessions").executeTakeFirst();
    return { adminKey, sessionsEnded: Number(ended.numDeletedRows) };
  } finally {
    await closeDb();
  }
}
