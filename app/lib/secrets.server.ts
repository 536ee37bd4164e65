import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ensurePrivateDir } from "./files.server";
import { env, isOneClassKey } from "./env.server";

/** Reads a secret kept in DATA_DIR, creating it (mode 0600) on first use. */
function fileSecret(name: string): { value: string; created: boolean } {
  const file = path.join(env().dataDir, name);
  try {
    const value = fs.readFileSync(file, "utf8").trim();
    if (value.length >= 16) return { value, created: false };
  } catch {
    // missing: create below
  }
  ensurePrivateDir(path.dirname(file));
  let value: string;
  // About one in 750 draws is letters only, which ADMIN_KEY would refuse if copied there.
  do value = crypto.randomBytes(24).toString("base64url");
  while (isOneClassKey(value));
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
  adminKey = undefined;
  sessionSecret = undefined;
}
