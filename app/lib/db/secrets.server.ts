import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DatabaseUnavailableError } from "../core/database-unavailable";
import { ensurePrivateDir } from "../server/files.server";
import type { Db } from "./db.server";
import { env, isOneClassKey } from "../server/env.server";

/**
 * Secrets every process must agree on, read from the database at start-up when it is
 * PostgreSQL (several processes or machines; see primeSharedSecrets). Unset on SQLite: one
 * machine keeps them in DATA_DIR.
 */
const shared = new Map<string, { value: string; created: boolean }>();

/** Secrets that are not random text: the Open Badges signing key is an Ed25519 private key (PKCS#8 PEM). */
const MAKERS: Record<string, () => string> = {
  "ob-signing-key": () => crypto.generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
};

const newSecret = (name = "") => {
  const make = MAKERS[name];
  if (make) return make();
  let value: string;
  // About one in 750 draws is letters only, which ADMIN_KEY would refuse if copied there.
  do value = crypto.randomBytes(24).toString("base64url");
  while (isOneClassKey(value));
  return value;
};

/**
 * On PostgreSQL: the session secret (and the admin key, when ADMIN_KEY is unset) come from
 * site_secrets, made by whichever process starts first, so a staff session made on one machine
 * works on the others and one generated key opens every machine's admin screens.
 */
export async function primeSharedSecrets(db: Db) {
  const names = ["session-secret", "ob-signing-key", ...(env().adminKey ? [] : ["admin-key"])];
  for (const name of names) {
    const inserted = await db
      .insertInto("site_secrets")
      .values({ name, value: newSecret(name), created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column("name").doNothing())
      .executeTakeFirst();
    const row = await db.selectFrom("site_secrets").select("value").where("name", "=", name).executeTakeFirstOrThrow();
    shared.set(name, { value: row.value, created: Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 });
  }
  primed = true;
}

/**
 * A server on PostgreSQL may start while the database is away: until primeSharedSecrets has
 * read them, a secret is not there to use (a request needing one is answered 503), never made
 * up in DATA_DIR, where it would differ from every other process's.
 */
let sharedRequired = false;
let primed = false;
export function requireSharedSecrets() {
  sharedRequired = true;
}

/** Reads a secret kept in DATA_DIR, creating it (mode 0600) on first use. */
function fileSecret(name: string): { value: string; created: boolean } {
  const fromDb = shared.get(name);
  if (fromDb) return fromDb;
  if (sharedRequired && !primed) throw new DatabaseUnavailableError("the shared secrets have not been read from the database yet");
  const file = path.join(env().dataDir, name);
  try {
    const value = fs.readFileSync(file, "utf8").trim();
    if (value.length >= 16) return { value, created: false };
  } catch {
    // missing: create below
  }
  ensurePrivateDir(path.dirname(file));
  const value = newSecret(name);
  fs.writeFileSync(file, value + "\n", { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return { value, created: true };
}

let adminKey: { value: string; source: "env" | "file"; file: string; created: boolean } | undefined;

export function adminKeyInfo() {
  if (!adminKey) {
    const fromEnv = env().adminKey;
    const file = path.join(env().dataDir, "admin-key");
    if (fromEnv) adminKey = { value: fromEnv, source: "env", file, created: false };
    else if (shared.has("admin-key")) adminKey = { ...fileSecret("admin-key"), source: "file", file: "the database (table site_secrets)" };
    else adminKey = { ...fileSecret("admin-key"), source: "file", file };
  }
  return adminKey;
}

export const getAdminKey = () => adminKeyInfo().value;

let sessionSecret: string | undefined;
export function getSessionSecret() {
  sessionSecret ??= fileSecret("session-secret").value;
  return sessionSecret;
}

let signingKey: { privateKey: crypto.KeyObject; publicKey: crypto.KeyObject } | undefined;

/**
 * The Open Badges 3.0 signing key (Ed25519): made once, kept in DATA_DIR/ob-signing-key (mode
 * 0600) on SQLite, in site_secrets on PostgreSQL, so every process signs with the same key.
 */
export function getSigningKey() {
  if (!signingKey) {
    const privateKey = crypto.createPrivateKey(fileSecret("ob-signing-key").value);
    signingKey = { privateKey, publicKey: crypto.createPublicKey(privateKey) };
  }
  return signingKey;
}

/** Compares two strings in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string) {
  const ha = crypto.createHash("sha256").update(a, "utf8").digest();
  const hb = crypto.createHash("sha256").update(b, "utf8").digest();
  return crypto.timingSafeEqual(ha, hb) && a.length === b.length;
}

/** A short fingerprint of the admin key: sessions made under an old key stop working. */
export function adminKeyFingerprint() {
  return crypto
    .createHmac("sha256", getSessionSecret())
    .update(getAdminKey())
    .digest("base64url")
    .slice(0, 22);
}

export function resetSecretsForTests() {
  shared.clear();
  sharedRequired = false;
  primed = false;
  adminKey = undefined;
  sessionSecret = undefined;
  signingKey = undefined;
}
