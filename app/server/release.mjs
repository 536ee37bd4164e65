// `npm run release [-- OUT_DIR]`: a self-contained release for a server that never builds: the
// production build, production dependencies only (installed from package-lock.json), the start
// and maintenance scripts, the deploy/ files and the README. It starts with
// `node app/server/start.mjs` in the release folder; a file named RELEASE marks it, so `npm
// start` there never builds. Written as release/outreach-site-<version>-<commit>/ and a .tar.gz
// beside it (what deploy/install.sh unpacks).
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { root, runBuild } from "./ensure-build.mjs";

// `--no-build`: package the build already there (the tests, right after their own build).
const args = process.argv.slice(2);
const noBuild = args.includes("--no-build");
const outDir = path.resolve(args.find((a) => !a.startsWith("--")) ?? path.join(root, "release"));
const run = (cmd, args, options = {}) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...options });
  if (r.status !== 0) {
    console.error(`[release] ${cmd} ${args.join(" ")} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
};
const git = (...args) => {
  try {
    return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "";
  }
};

const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const commit = git("rev-parse", "--short=10", "HEAD") || "unknown";
const dirty = git("status", "--porcelain", "--untracked-files=no") ? "-modified" : "";
const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
const name = `outreach-site-${stamp}-${commit}${dirty}`;
const dir = path.join(outDir, name);

console.log(`[release] building ${name}`);
if (!noBuild && runBuild() !== 0) process.exit(1);

fs.mkdirSync(outDir, { recursive: true });
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir);
const copy = (rel) => fs.cpSync(path.join(root, rel), path.join(dir, rel), { recursive: true, dereference: true });
for (const rel of ["build", "deploy", "docs", "README.md"]) copy(rel);
for (const file of ["start.mjs", "worker.mjs", "ensure-build.mjs", "backup.mjs", "import-legacy.mjs"]) copy(`app/server/${file}`);
// package.json without the scripts that need the sources: `npm start`, backup and restore stay.
const scripts = Object.fromEntries(
  Object.entries(pkg.scripts).filter(([k]) => ["start", "backup", "restore", "db:copy", "import:legacy"].includes(k)),
);
fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify({ ...pkg, scripts, devDependencies: undefined }, null, 2)}\n`);
fs.writeFileSync(
  path.join(dir, "RELEASE"),
  `${name}\ncommit ${git("rev-parse", "HEAD") || "unknown"}${dirty ? " (with uncommitted changes)" : ""}\nbuilt ${new Date().toISOString()} with Node ${process.version}\n`,
);

// Production dependencies only: the packages `npm ls --omit=dev` names, copied from this
// checkout's node_modules (installed from package-lock.json, native modules built for this
// machine): build the release on the same OS, architecture and Node major as the server.
const listed = spawnSync("npm", ["ls", "--omit=dev", "--all", "--parseable"], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 })
  .stdout.split("\n")
  .map((p) => path.relative(root, p.trim()))
  .filter((p) => p.startsWith(`node_modules${path.sep}`) && !p.includes(`${path.sep}node_modules${path.sep}`, "node_modules".length))
  // An optional peer of @react-router/node that npm lists when installed: nothing here runs it.
  .filter((p) => p !== path.join("node_modules", "typescript"));
for (const rel of listed) copy(rel);
if (!listed.some((p) => p.endsWith(`${path.sep}better-sqlite3`))) {
  console.error("[release] `npm ls --omit=dev` listed no better-sqlite3: run `npm ci` first.");
  process.exit(1);
}
console.log(`[release] ${listed.length} production packages copied`);

const tarball = `${dir}.tar.gz`;
run("tar", ["-czf", tarball, "-C", outDir, name]);
const mb = (fs.statSync(tarball).size / 1e6).toFixed(1);
console.log(`[release] ${dir}\n[release] ${tarball} (${mb} MB)\n[release] on the server: sudo ${name}/deploy/install.sh ${name}.tar.gz https://your.site`);
