// The dependencies of an older commit unpacked for a bench (tests/bench/orders.mjs, baselineTree):
// its node_modules is a folder of links to this checkout's installed packages, plus, installed
// from the registry into that folder, the packages the older commit asks for that this checkout
// no longer has (a package since dropped: the old build's server imports it and would not start).
// A folder made for another checkout (or a plain link to another checkout's node_modules, as
// earlier benches made it) is made again.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const MARK = ".baseline-modules.json";

const versionIn = (modules, name) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(modules, name, "package.json"), "utf8")).version;
  } catch {
    return null;
  }
};

/** Top-level package names in a node_modules folder (scoped ones as @scope/name). */
function packagesIn(modules) {
  const out = [];
  for (const name of fs.existsSync(modules) ? fs.readdirSync(modules) : []) {
    if (name.startsWith(".")) continue;
    if (name.startsWith("@")) for (const sub of fs.readdirSync(path.join(modules, name))) out.push(`${name}/${sub}`);
    else out.push(name);
  }
  return out;
}

/**
 * Makes `dir`/node_modules for the commit unpacked in `dir`, from `root`'s installed packages.
 * Returns the packages installed apart (name@version), or throws with npm's own message.
 */
export function baselineModules(dir, root) {
  const target = path.join(dir, "node_modules");
  const from = path.join(root, "node_modules");
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const wanted = { ...pkg.devDependencies, ...pkg.dependencies };
  const missing = Object.entries(wanted)
    .filter(([name]) => versionIn(from, name) === null)
    .map(([name, version]) => `${name}@${version}`)
    .sort();
  try {
    const mark = JSON.parse(fs.readFileSync(path.join(target, MARK), "utf8"));
    if (!fs.lstatSync(target).isSymbolicLink() && mark.from === from && mark.missing.join() === missing.join()) return missing;
  } catch {}

  const part = `${target}.part-${process.pid}`;
  fs.rmSync(part, { recursive: true, force: true });
  fs.mkdirSync(part);
  for (const name of fs.readdirSync(from)) {
    if (name.startsWith("@")) {
      fs.mkdirSync(path.join(part, name));
      for (const sub of fs.readdirSync(path.join(from, name))) fs.symlinkSync(path.join(from, name, sub), path.join(part, name, sub), "dir");
    } else if (name !== ".package-lock.json") fs.symlinkSync(path.join(from, name), path.join(part, name), "dir");
  }
  if (missing.length) {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "baseline-install-"));
    try {
      fs.writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ private: true }));
      // Peers (react, react-router) are this checkout's: one copy of each, as the old build had.
      execFileSync(
        "npm",
        ["install", "--no-audit", "--no-fund", "--no-package-lock", "--legacy-peer-deps", "--ignore-scripts", ...missing],
        { cwd: scratch, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" } },
      );
      const got = path.join(scratch, "node_modules");
      const own = missing.map((m) => m.slice(0, m.lastIndexOf("@")));
      for (const name of packagesIn(got)) {
        const dest = path.join(part, name);
        if (!fs.existsSync(dest)) {
          fs.mkdirSync(path.dirname(dest), { recursive: true });
          fs.cpSync(path.join(got, name), dest, { recursive: true, verbatimSymlinks: true });
        } else if (versionIn(got, name) !== versionIn(part, name)) {
          // This checkout has another version: each package installed apart gets its own copy.
          for (const o of own) fs.cpSync(path.join(got, name), path.join(part, o, "node_modules", name), { recursive: true, verbatimSymlinks: true });
        }
      }
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
  fs.writeFileSync(path.join(part, MARK), JSON.stringify({ from, missing }));
  // Another bench may be doing the same: the last one to finish wins, with the same contents.
  const old = `${target}.old-${process.pid}`;
  try {
    fs.renameSync(target, old);
  } catch {}
  fs.renameSync(part, target);
  fs.rmSync(old, { recursive: true, force: true });
  return missing;
}
