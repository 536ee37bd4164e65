import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { importedKeys, rememberImported } from "../legacy-ledger/ledger.server";
import { LegacyFileError } from "./legacy-files";

export type { Cut, FileReport, Refusal } from "./import-report";
import type { FileReport } from "./import-report";

export type RunContext = {
  dir: string;
  dryRun: boolean;
  /** Hashes old IP addresses into client ids for this run only (no address is stored). */
  salt: Buffer;
  badgesFile: string;
  reports: FileReport[];
  onFile?: (r: FileReport) => void;
  /** Old slug (as written, or as the old tracker stripped it) -> the post's slug here. */
  aliases: Map<string, string>;
  /** The old repository's root (public/'s parent, where src/assets/badges/ lives), or null when not there. */
  repo?: string | null;
};

/**
 * The folder the command was given, as the old site's public/ folder and its repository root:
 * the repository root (holding public/) or public/ itself (its parent then the root, if it has src/).
 */
export function oldSiteFolders(dir: string): { publicDir: string; repo: string | null } {
  const at = path.resolve(dir);
  const isDir = (p: string) => {
    try {
      return fs.statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  if (!isDir(path.join(at, "data")) && isDir(path.join(at, "public"))) return { publicDir: path.join(at, "public"), repo: at };
  const parent = path.dirname(at);
  return { publicDir: at, repo: isDir(path.join(parent, "src")) ? parent : null };
}

/** The bytes of a file of the old repository (never outside it), or null. */
export function readRepoBytes(ctx: RunContext, rel: string): Buffer | null {
  if (!ctx.repo) return null;
  const root = path.resolve(ctx.repo);
  const file = path.resolve(root, rel);
  if (!file.startsWith(root + path.sep)) return null;
  try {
    return fs.statSync(file).isFile() ? fs.readFileSync(file) : null;
  } catch {
    return null;
  }
}

export const newReport = (file: string, records: string): FileReport => ({ file, records, added: 0, skipped: 0, refused: [], review: [], cut: [], notes: [], missing: false });

/** The text of a file of the old site, or null when it is not there. */
export function readOldFile(ctx: RunContext, rel: string): string | null {
  const file = path.resolve(ctx.dir, rel);
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** The bytes of a file under the old site's folder (never outside it), or null. */
export function readOldBytes(ctx: RunContext, rel: string): Buffer | null {
  const root = path.resolve(ctx.dir);
  const file = path.resolve(root, rel);
  if (!file.startsWith(root + path.sep)) return null;
  try {
    return fs.statSync(file).isFile() ? fs.readFileSync(file) : null;
  } catch {
    return null;
  }
}

let savepoints = 0;

/** Runs `fn` inside a savepoint: a failure undoes only what `fn` wrote, and is thrown on. */
export async function inSavepoint<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const name = sql.raw(`legacy_${++savepoints}`);
  await sql`savepoint ${name}`.execute(db);
  try {
    const out = await fn();
    await sql`release savepoint ${name}`.execute(db);
    return out;
  } catch (e) {
    await sql`rollback to savepoint ${name}`.execute(db);
    await sql`release savepoint ${name}`.execute(db);
    throw e;
  }
}

/** The words for a record refused by an error. */
export function reasonOf(e: unknown): string {
  if (e instanceof DomainError || e instanceof LegacyFileError) return e.message;
  return `could not be saved (${e instanceof Error ? e.message.split("\n")[0]!.slice(0, 160) : String(e)})`;
}

/**
 * One file being imported, inside its kind's transaction: which old keys it has taken (loaded
 * once), what it adds, skips and refuses, and the notes for staff.
 */
export class FileStep {
  readonly report: FileReport;
  private keys = new Set<string>();
  private taken: { key: string; target: string }[] = [];

  private constructor(
    readonly ctx: RunContext,
    readonly db: Db,
    readonly kind: string,
    file: string,
    records: string,
  ) {
    this.report = newReport(file, records);
  }

  static async open(ctx: RunContext, db: Db, kind: string, file: string, records: string) {
    const step = new FileStep(ctx, db, kind, file, records);
    step.keys = await importedKeys(db, kind);
    return step;
  }

  /** True when the import has taken this key before (this run or an earlier one). */
  seen(key: string) {
    return this.keys.has(key);
  }

  /** Records a key as taken, and what it is here. */
  take(key: string, target = "") {
    this.keys.add(key);
    this.taken.push({ key, target });
  }

  added(n = 1) {
    this.report.added += n;
  }

  skipped(n = 1) {
    this.report.skipped += n;
  }

  refuse(line: number, reason: string, raw?: string) {
    this.report.refused.push(raw === undefined ? { line, reason } : { line, reason, raw });
  }

  /** A record imported for staff to look at (it is here; the report says why). */
  review(line: number, reason: string) {
    this.report.review.push({ line, reason });
  }

  /** A value shortened or left out: its full text stays in the report. */
  cut(line: number, what: string, full: string) {
    this.report.cut.push({ line, what, full });
  }

  note(text: string) {
    this.report.notes.push(text);
  }

  /** One record, in a savepoint: a refusal (a thrown error) undoes only that record. */
  async record(line: number, fn: () => Promise<void>) {
    try {
      await inSavepoint(this.db, fn);
    } catch (e) {
      this.refuse(line, reasonOf(e));
    }
  }

  /** The file is not in the folder. */
  missing() {
    this.report.missing = true;
  }

  /** Writes down what was taken, and hands the report on. */
  async close() {
    await rememberImported(this.db, this.kind, this.taken);
    this.taken = [];
  }
}

/** A key for a log line: its hash, and how many identical lines came before it in the file. */
export function lineKeys() {
  const seen = new Map<string, number>();
  return (raw: string) => {
    const hash = crypto.createHash("sha256").update(raw).digest("hex").slice(0, 32);
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    return `${hash}#${n}`;
  };
}

/** A client id for an old log line: its own id when it has one, else its address hashed for this run. */
export function clientOf(ctx: RunContext, cid: unknown, ip: unknown, ua: unknown = ""): string | null {
  const own = typeof cid === "string" ? cid.replace(/[^A-Za-z0-9_-]/g, "") : "";
  if (own.length >= 8 && own.length <= 64) return own;
  const address = typeof ip === "string" ? ip.trim() : "";
  if (!address) return null;
  return `ip${crypto.createHmac("sha256", ctx.salt).update(`${address}\n${typeof ua === "string" ? ua : ""}`).digest("hex").slice(0, 30)}`;
}

/** Lower-case letters, digits and single dashes, as this site's slugs are ('' when nothing is left). */
export function toSlug(raw: string, max = 80): string {
  return raw
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/g, "");
}

/** How the old tracker and reactions stored a slug: everything but a-z, 0-9 and - removed. */
export const trackerSlug = (raw: string) => raw.replace(/[^a-z0-9-]/gi, "").slice(0, 128);

/** The post an old slug names here: itself, or its alias. */
export function postSlugFor(ctx: RunContext, slugs: Set<string>, raw: string): string | null {
  if (slugs.has(raw)) return raw;
  const aliased = ctx.aliases.get(raw) ?? ctx.aliases.get(raw.toLowerCase());
  if (aliased && slugs.has(aliased)) return aliased;
  const slug = toSlug(raw);
  return slugs.has(slug) ? slug : null;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
