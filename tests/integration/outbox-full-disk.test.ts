import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/lib/db/db.server";
import { drainOutbox, enqueueMail, NO_SPACE_RETRY_MS } from "~/lib/mail/email.server";
import { TMP_DIR } from "../support/e2e-env";
import { freshApp } from "../support/reset";

/**
 * With no SMTP_URL the outbox writes each message as an .eml file under DATA_DIR. On a full disk
 * (a 1 MB tmpfs, filled) no empty or cut-off .eml is left, the message stays queued, its attempt
 * not counted, and it is written once there is room. Needs root (mount); skipped, saying why,
 * where mounting is refused.
 */

const mountPoint = path.join(TMP_DIR, `outbox-full-${process.pid}`);
let mounted = false;
let reason = "";

beforeAll(() => {
  fs.mkdirSync(mountPoint, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", mountPoint], { stdio: "pipe" });
    mounted = true;
  } catch (e) {
    reason = `cannot mount a tmpfs (${String((e as { stderr?: Buffer }).stderr ?? e).trim().split("\n")[0]})`;
    console.warn(`[outbox-full-disk] skipped: ${reason}`);
  }
});

afterAll(() => {
  if (mounted) execFileSync("umount", ["-l", mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

function fill(file: string) {
  const fd = fs.openSync(file, "w");
  for (const size of [64 * 1024, 512, 1]) {
    const chunk = Buffer.alloc(size, 1);
    try {
      for (;;) fs.writeSync(fd, chunk);
    } catch {}
  }
  fs.closeSync(fd);
}

const outboxFiles = () => {
  const dir = path.join(mountPoint, "outbox");
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => ({ f, size: fs.statSync(path.join(dir, f)).size })) : [];
};

describe("the outbox on a full disk", () => {
  it("leaves no empty .eml, keeps the message queued without counting the attempt, and writes it once there is room", async (ctx) => {
    if (!mounted) return ctx.skip(reason);
    const db: Db = await freshApp({ DATA_DIR: mountPoint, SMTP_URL: undefined });
    fs.mkdirSync(path.join(mountPoint, "outbox"), { recursive: true });
    const filler = path.join(mountPoint, "filler.bin");
    fill(filler);

    const id = await enqueueMail(db, { kind: "test", to: "reader@example.org", subject: "Hello", text: "A message of some length.\n".repeat(200) });
    const before = Date.now();
    await drainOutbox();
    expect(outboxFiles()).toEqual([]);
    const row = await db.selectFrom("outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "queued", attempts: 0 });
    expect(row.last_error).toMatch(/ENOSPC|no space/i);
    expect(Date.parse(row.next_attempt_at) - before).toBeLessThanOrEqual(NO_SPACE_RETRY_MS + 1_000);

    fs.rmSync(filler);
    await db.updateTable("outbox").set({ next_attempt_at: new Date().toISOString() }).where("id", "=", id).execute();
    await drainOutbox();
    expect(await db.selectFrom("outbox").select("status").where("id", "=", id).executeTakeFirstOrThrow()).toEqual({ status: "written" });
    const files = outboxFiles();
    expect(files).toHaveLength(1);
    expect(files[0]!.f).toMatch(/\.eml$/);
    expect(files[0]!.size).toBeGreaterThan(4_000);
  });
});
