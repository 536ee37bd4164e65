// `npm run test:unit`: the Vitest suite on SQLite (the default), then the same suite on
// PostgreSQL when one can be had (tests/support/postgres.mjs). When none can, it says so and
// the run passes on SQLite alone, unless REQUIRE_POSTGRES=1 (CI sets it).
// Arguments go to vitest: `npm run test:unit -- app/features/merch`.
import { spawnSync } from "node:child_process";
import { startTestPostgres } from "./postgres.mjs";

const args = process.argv.slice(2);
const vitest = (label, extraEnv) => {
  console.log(`\n=== Vitest on ${label} ===\n`);
  const r = spawnSync("npx", ["vitest", "run", ...args], { stdio: "inherit", env: { ...process.env, ...extraEnv } });
  return r.status ?? 1;
};

const only = process.env.TEST_DATABASES ?? "sqlite,postgres";
let failed = false;
if (only.includes("sqlite")) failed = vitest("SQLite", { TEST_DATABASE_URL: "" }) !== 0 || failed;
if (only.includes("postgres")) {
  const pg = await startTestPostgres();
  if (!pg.url) {
    console.log(`\n=== Vitest on PostgreSQL: NOT RUN. ${pg.reason} ===`);
    console.log("    Set TEST_DATABASE_URL=postgres://user@host:port/postgres (a role that may create databases) to run it.\n");
    if (process.env.REQUIRE_POSTGRES === "1") failed = true;
  } else {
    try {
      failed = vitest(`PostgreSQL (${pg.started ? "a throwaway cluster" : "TEST_DATABASE_URL"})`, { TEST_DATABASE_URL: pg.url }) !== 0 || failed;
    } finally {
      pg.stop();
    }
  }
}
process.exit(failed ? 1 : 0);
