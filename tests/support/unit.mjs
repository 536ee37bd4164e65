// `npm run test:unit`: the Vitest suite on SQLite (the default), then the same suite on
// PostgreSQL when one can be had (tests/support/postgres.mjs). When none can, it says so and
// the run passes on SQLite alone, unless REQUIRE_POSTGRES=1 (CI sets it).
// Arguments go to vitest: `npm run test:unit -- app/features/merch`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startTestPostgres } from "./postgres.mjs";

const args = process.argv.slice(2);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "site-vitest-"));
const outcomes = [];

/** Runs the suite once; a JSON report beside the usual output names any failure at the very end. */
const vitest = (label, extraEnv) => {
  console.log(`\n=== Vitest on ${label} ===\n`);
  const report = path.join(reports, `${outcomes.length}.json`);
  const r = spawnSync(
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...args],
    { stdio: "inherit", env: { ...process.env, ...extraEnv } },
  );
  const status = r.status ?? 1;
  outcomes.push({ label, status, failures: failuresIn(report), slowest: slowestIn(report) });
  return status;
};

function failuresIn(report) {
  try {
    const json = JSON.parse(fs.readFileSync(report, "utf8"));
    const out = [];
    for (const file of json.testResults ?? []) {
      const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
      for (const t of failed) out.push(`${path.relative(process.cwd(), file.name)} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
      if (!failed.length && file.status === "failed") out.push(`${path.relative(process.cwd(), file.name)}: ${String(file.message ?? "").split("\n")[0]}`);
    }
    return out;
  } catch {
    return ["(no report: vitest did not finish)"];
  }
}

/** A timeout's message is "STACK_TRACE_ERROR" on its first line and "timed out" further down: say the useful one. */
function firstLine(message) {
  const lines = String(message ?? "").split("\n");
  return lines.find((l) => /timed out/i.test(l))?.trim() ?? lines[0];
}

/** The slowest tests, so one creeping toward its timeout is seen before a loaded CI machine trips it. */
function slowestIn(report) {
  try {
    const json = JSON.parse(fs.readFileSync(report, "utf8"));
    const all = (json.testResults ?? []).flatMap((file) =>
      (file.assertionResults ?? []).map((t) => ({ ms: t.duration ?? 0, name: `${path.relative(process.cwd(), file.name)} > ${t.title}` })),
    );
    return all.sort((a, b) => b.ms - a.ms).slice(0, 5);
  } catch {
    return [];
  }
}

/** The last lines of the run say which database's suite failed and which tests, so a CI log's tail is enough. */
function summary() {
  console.log("\n=== Vitest summary ===");
  for (const o of outcomes) {
    console.log(`${o.status === 0 ? "PASS" : "FAIL"} on ${o.label}${o.status === 0 ? "" : ` (exit ${o.status})`}`);
    for (const f of o.failures.slice(0, 20)) console.log(`  - ${f.slice(0, 400)}`);
    console.log(`  slowest: ${o.slowest.map((t) => `${(t.ms / 1000).toFixed(1)} s ${t.name.slice(0, 120)}`).join("\n           ")}`);
  }
  fs.rmSync(reports, { recursive: true, force: true });
}

const only = process.env.TEST_DATABASES ?? "sqlite,postgres";
let failed = false;
if (only.includes("sqlite")) failed = vitest("SQLite", { TEST_DATABASE_URL: "" }) !== 0 || failed;
if (only.includes("postgres")) {
  const pg = await startTestPostgres();
  if (!pg.url) {
    console.log(`\n=== Vitest on PostgreSQL: NOT RUN. ${pg.reason} ===`);
    console.log("    Set TEST_DATABASE_URL=postgres://user@host:port/postgres (a role that may create databases) to run it.\n");
    if (process.env.REQUIRE_POSTGRES === "1") {
      failed = true;
      outcomes.push({ label: "PostgreSQL", status: 1, failures: [`not run (REQUIRE_POSTGRES=1): ${pg.reason.split("\n")[0]}`] });
    }
  } else {
    try {
      failed = vitest(`PostgreSQL (${pg.started ? "a throwaway cluster" : "TEST_DATABASE_URL"})`, { TEST_DATABASE_URL: pg.url }) !== 0 || failed;
    } finally {
      pg.stop();
    }
  }
}
summary();
process.exit(failed ? 1 : 0);
