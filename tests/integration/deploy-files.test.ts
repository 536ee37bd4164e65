import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, TMP_DIR } from "../support/e2e-env";
import { testDatabaseKind } from "../support/reset";
import { parseEnv } from "~/lib/server/env.server";

/**
 * What an operator copies from deploy/: the systemd unit verifies, the settings template is
 * every setting the site reads (and starts as it is), and install.sh runs twice in a scratch
 * root (INSTALL_ROOT) with the commands that change the system (apt-get, useradd, chown,
 * systemctl, getent) replaced by ones that only write down how they were called.
 */
const deploy = (f: string) => path.join(ROOT, "deploy", f);
const scratch = fs.mkdtempSync(path.join((fs.mkdirSync(TMP_DIR, { recursive: true }), TMP_DIR), "install-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe.runIf(testDatabaseKind === "sqlite")("deploy/ files", () => {
  it("the systemd unit passes `systemd-analyze verify` with nothing to say", (ctx) => {
    const analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].find((p) => fs.existsSync(p));
    if (!analyze) {
      console.warn("[deploy test] systemd-analyze verify SKIPPED: systemd-analyze is not installed here.");
      ctx.skip();
      return;
    }
    const unit = fs.readFileSync(deploy("outreach-site.service"), "utf8");
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node app\/server\/start\.mjs$/m);
    expect(unit).toMatch(/^ReadWritePaths=\/var\/lib\/outreach-site -\/var\/backups\/outreach-site$/m);
    for (const line of ["Restart=on-failure", "User=outreach", "ProtectSystem=strict", "EnvironmentFile=/etc/outreach-site/site.env", "WantedBy=multi-user.target"]) {
      expect(unit).toContain(`\n${line}\n`);
    }
    expect(unit).toMatch(/^MemoryMax=\d+M$/m);
    const file = path.join(scratch, "outreach-site.service");
    fs.writeFileSync(file, unit);
    const r = spawnSync(analyze, ["verify", file], { encoding: "utf8" });
    // verify exits 0 even for unknown keys or bad values: it only says so. Silence is the pass.
    expect(`${r.stdout}${r.stderr}`.trim()).toBe("");
    expect(r.status).toBe(0);
    // And it does say so: the same unit with a misspelt key is not silent.
    fs.writeFileSync(file, unit.replace("ProtectSystem=strict", "ProtectSystem=stricter"));
    expect(spawnSync(analyze, ["verify", file], { encoding: "utf8" }).stderr).toMatch(/ProtectSystem|protect system/i);
  });

  it("the settings template names every setting the site reads, commented, and is a valid configuration as it is", () => {
    const text = fs.readFileSync(deploy("site.env.example"), "utf8");
    const schemaKeys = [...fs.readFileSync(path.join(ROOT, "app/lib/server/env.server.ts"), "utf8").matchAll(/^ {2}([A-Z][A-Z0-9_]+): /gm)]
      .map((m) => m[1]!)
      .concat([...fs.readFileSync(path.join(ROOT, "app/lib/server/daraja-env.server.ts"), "utf8").matchAll(/^ {2}([A-Z][A-Z0-9_]+): /gm)].map((m) => m[1]!))
      .filter((k) => k !== "NODE_ENV");
    expect(schemaKeys.length).toBeGreaterThan(20);
    const lines = text.split("\n");
    for (const key of schemaKeys) {
      const at = lines.findIndex((l) => new RegExp(`^#?${key}=`).test(l));
      expect(at, `${key} in site.env.example`).toBeGreaterThan(0);
      let above = at - 1;
      while (above > 0 && /^#?[A-Z][A-Z0-9_]*=/.test(lines[above]!)) above--;
      expect(lines[above], `a comment above ${key}`).toMatch(/^# +\S/);
    }
    const values = Object.fromEntries(lines.filter((l) => /^[A-Z_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
    const config = parseEnv(values);
    expect(config.host).toBe("127.0.0.1");
    expect(config.trustedProxies).toEqual(["127.0.0.0/8", "::1"]);
    expect(config.publicUrl).toBe("https://example.org");
  });

  it("install.sh sets up a fresh Debian 13 root, and a second run changes nothing", () => {
    const root = path.join(scratch, "root");
    const bin = path.join(scratch, "bin");
    const calls = path.join(scratch, "calls.log");
    fs.mkdirSync(path.join(root, "etc"), { recursive: true });
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(root, "etc/os-release"), 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\nVERSION_ID="13"\n');
    // Debian's example Caddyfile, as the caddy package leaves it.
    fs.mkdirSync(path.join(root, "etc/caddy"));
    fs.writeFileSync(path.join(root, "etc/caddy/Caddyfile"), ":80 {\n\troot * /usr/share/caddy\n\tfile_server\n}\n");
    const users = path.join(scratch, "users");
    const stub = (name: string, body = "") =>
      fs.writeFileSync(path.join(bin, name), `#!/bin/sh\necho "${name} $*" >> "${calls}"\n${body}\n`, { mode: 0o755 });
    stub("apt-get");
    stub("chown");
    stub("systemctl");
    stub("caddy", 'echo "v2.6.2 h1:stub"');
    stub("useradd", `echo "$*" >> "${users}"`);
    stub("getent", `[ -f "${users}" ] && grep -q outreach "${users}"`);
    // A release folder as `npm run release` makes it (the marker and the start script are what install.sh checks).
    const release = path.join(scratch, "outreach-site-20261129T000000-abc");
    fs.mkdirSync(path.join(release, "app/server"), { recursive: true });
    fs.writeFileSync(path.join(release, "RELEASE"), "outreach-site-20261129T000000-abc\n");
    fs.writeFileSync(path.join(release, "app/server/start.mjs"), "");
    const run = () =>
      spawnSync("bash", [deploy("install.sh"), release, "https://site.example.org"], {
        encoding: "utf8",
        env: { PATH: `${bin}:${process.env.PATH}`, INSTALL_ROOT: root, HOME: scratch },
      });

    const first = run();
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    const envFile = path.join(root, "etc/outreach-site/site.env");
    expect(fs.readFileSync(envFile, "utf8")).toMatch(/^PUBLIC_URL=https:\/\/site\.example\.org$/m);
    expect(fs.statSync(envFile).mode & 0o777).toBe(0o640);
    expect(fs.statSync(path.join(root, "var/lib/outreach-site")).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(root, "var/backups/outreach-site")).mode & 0o777).toBe(0o700);
    expect(fs.readlinkSync(path.join(root, "opt/outreach-site/current"))).toBe("releases/outreach-site-20261129T000000-abc");
    expect(fs.readFileSync(path.join(root, "etc/systemd/system/outreach-site.service"), "utf8")).toBe(fs.readFileSync(deploy("outreach-site.service"), "utf8"));
    const caddyfile = fs.readFileSync(path.join(root, "etc/caddy/Caddyfile"), "utf8");
    expect(caddyfile).toMatch(/^site\.example\.org \{$/m);
    expect(caddyfile).toContain("reverse_proxy 127.0.0.1:3000");
    expect(fs.readFileSync(path.join(root, "etc/caddy/Caddyfile.debian"), "utf8")).toContain("file_server");
    const log1 = fs.readFileSync(calls, "utf8");
    expect(log1).toContain("useradd --system --user-group");
    expect(log1).toContain("systemctl enable --quiet outreach-site.service");
    expect(log1).toContain("systemctl restart outreach-site.service");
    expect(log1).not.toContain("apt-get");

    // Again, after the operator edited the settings: nothing is overwritten or created twice.
    fs.appendFileSync(envFile, "SMTP_URL=smtp://mail.example.org:587\n");
    fs.writeFileSync(calls, "");
    const second = run();
    expect(second.stderr).toBe("");
    expect(second.status).toBe(0);
    expect(fs.readFileSync(envFile, "utf8")).toContain("SMTP_URL=smtp://mail.example.org:587");
    expect(fs.readFileSync(calls, "utf8")).not.toContain("useradd");
    expect(fs.readFileSync(path.join(root, "etc/caddy/Caddyfile"), "utf8")).toBe(caddyfile);
    expect(fs.readdirSync(path.join(root, "opt/outreach-site/releases"))).toEqual(["outreach-site-20261129T000000-abc"]);
    expect(fs.readFileSync(users, "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("install.sh on Debian 12 with an old Node says how to get a new one, and stops", () => {
    const root = path.join(scratch, "old-root");
    const bin = path.join(scratch, "old-bin");
    fs.mkdirSync(path.join(root, "etc"), { recursive: true });
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(root, "etc/os-release"), 'ID=debian\nVERSION_ID="12"\n');
    for (const name of ["apt-get", "chown", "systemctl", "caddy", "useradd", "getent"]) fs.writeFileSync(path.join(bin, name), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    fs.writeFileSync(path.join(bin, "node"), `#!/bin/sh\n[ "$1" = --version ] && echo v18.19.0 && exit 0\nexec ${process.execPath} -e "process.exit(1)"\n`, { mode: 0o755 });
    const r = spawnSync("bash", [deploy("install.sh"), scratch], { encoding: "utf8", env: { PATH: `${bin}:/usr/bin:/bin`, INSTALL_ROOT: root } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("Node.js 20.19 or later is needed (found: v18.19.0)");
    expect(r.stderr).toContain("NodeSource");
    expect(fs.existsSync(path.join(root, "opt/outreach-site"))).toBe(false);
  });
});
