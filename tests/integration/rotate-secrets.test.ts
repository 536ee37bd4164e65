import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import { getDb, isPostgres } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { rotateSecretsCommand } from "~/lib/db/rotate-secrets.server";
import { getSessionSecret, primeSharedSecrets } from "~/lib/db/secrets.server";
import { get } from "../support/http";
import { freshApp } from "../support/reset";

describe("npm run rotate-secrets", () => {
  it("makes a new session secret (and admin key when none is configured) and ends every staff session", async () => {
    const db = await freshApp({ ADMIN_KEY: undefined });
    if (isPostgres(db)) await primeSharedSecrets(db);
    const before = getSessionSecret();
    await createAdminSessionCookie(db, get("/admin"));
    expect(await db.selectFrom("staff_sessions").select("id").execute()).toHaveLength(1);

    const done = await rotateSecretsCommand();
    expect(done.sessionsEnded).toBe(1);
    expect(done.adminKey).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const after = await getDb();
    expect(await after.selectFrom("staff_sessions").select("id").execute()).toEqual([]);
    const stored = isPostgres(after)
      ? Object.fromEntries((await after.selectFrom("site_secrets").select(["name", "value"]).execute()).map((r) => [r.name, r.value]))
      : { "session-secret": fs.readFileSync(path.join(env().dataDir, "session-secret"), "utf8").trim(), "admin-key": fs.readFileSync(path.join(env().dataDir, "admin-key"), "utf8").trim() };
    expect(stored["session-secret"]).not.toBe(before);
    expect(stored["admin-key"]).toBe(done.adminKey);
  });
});
