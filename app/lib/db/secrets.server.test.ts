import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTests } from "../server/env.server";
import { adminKeyFingerprint, adminKeyInfo, getSessionSecret, resetSecretsForTests, safeEqual } from "./secrets.server";

describe("safeEqual", () => {
  it.each([
    ["same", "same", true],
    ["same", "Same", false],
    ["abc", "abcd", false],
    ["", "", true],
    ["", "x", false],
    ["test-admin-key-0123456789", "test-admin-key-0123456788", false],
    ["ключ", "ключ", true],
  ])("%j vs %j -> %s", (a, b, expected) => {
    expect(safeEqual(a, b)).toBe(expected);
  });
});

describe("secrets kept in DATA_DIR", () => {
  const savedKey = process.env.ADMIN_KEY;
  afterEach(() => {
    process.env.ADMIN_KEY = savedKey;
    resetEnvForTests();
    resetSecretsForTests();
  });

  it("without ADMIN_KEY an admin key is generated once, stored with mode 0600, and reused", () => {
    delete process.env.ADMIN_KEY;
    resetEnvForTests();
    resetSecretsForTests();
    const first = adminKeyInfo();
    expect(first.source).toBe("file");
    expect(first.value.length).toBeGreaterThanOrEqual(16);
    expect(first.file).toBe(path.join(process.env.DATA_DIR!, "admin-key"));
    expect(fs.statSync(first.file).mode & 0o777).toBe(0o600);
    resetSecretsForTests();
    const again = adminKeyInfo();
    expect(again.value).toBe(first.value);
    expect(again.created).toBe(false);
  });

  it("the session secret survives a restart, and a key change changes the fingerprint", () => {
    const secret = getSessionSecret();
    const fp = adminKeyFingerprint();
    resetSecretsForTests();
    expect(getSessionSecret()).toBe(secret);
    expect(adminKeyFingerprint()).toBe(fp);
    process.env.ADMIN_KEY = "another-admin-key-9876543210";
    resetEnvForTests();
    resetSecretsForTests();
    expect(adminKeyFingerprint()).not.toBe(fp);
  });
});
