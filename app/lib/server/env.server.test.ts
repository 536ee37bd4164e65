import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.server";

function configError(source: NodeJS.ProcessEnv): ConfigError {
  try {
    parseEnv(source);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error("parseEnv accepted a bad configuration");
}

describe("parseEnv", () => {
  it("fills in the documented defaults", () => {
    const env = parseEnv({});
    expect(env.port).toBe(3000);
    expect(env.host).toBe("0.0.0.0");
    expect(env.publicUrl).toBe("http://localhost:3000");
    expect(env.dataDir).toBe(path.resolve("./data"));
    expect(env.databasePath).toBe(path.join(path.resolve("./data"), "site.db"));
    expect(env.rateLimit).toBe(true);
    expect(env.trustProxy).toBe(false);
    expect(env.smtpUrl).toBeUndefined();
    expect(env.adminKey).toBeUndefined();
  });

  it("derives PUBLIC_URL from PORT and DATABASE_PATH from DATA_DIR", () => {
    const env = parseEnv({ PORT: "8080", DATA_DIR: "/srv/site-data" });
    expect(env.publicUrl).toBe("http://localhost:8080");
    expect(env.databasePath).toBe("/srv/site-data/site.db");
  });

  it("takes explicit values, drops a trailing slash and treats empty strings as unset", () => {
    const env = parseEnv({
      PORT: "",
      PUBLIC_URL: "https://example.org/",
      DATABASE_PATH: "/tmp/x/other.db",
      RATE_LIMIT: "off",
      TRUST_PROXY: "on",
      SMTP_URL: "smtps://user:pass@mail.example.org:465",
      ADMIN_KEY: "a-long-enough-admin-key",
    });
    expect(env.port).toBe(3000);
    expect(env.publicUrl).toBe("https://example.org");
    expect(env.databasePath).toBe("/tmp/x/other.db");
    expect(env.rateLimit).toBe(false);
    expect(env.trustProxy).toBe(true);
    expect(env.trustedProxies).toEqual(["127.0.0.0/8", "::1"]);
    expect(env.smtpUrl).toBe("smtps://user:pass@mail.example.org:465");
    expect(env.adminKey).toBe("a-long-enough-admin-key");
  });

  it.each([
    ["PORT", "http"],
    ["PORT", "70000"],
    ["PORT", "0"],
    ["PORT", "80.5"],
    ["PUBLIC_URL", "example.org"],
    ["PUBLIC_URL", "ftp://example.org"],
    ["SMTP_URL", "mail.example.org:25"],
    ["SMTP_URL", "http://mail.example.org"],
    ["ADMIN_KEY", "short-key"],
    ["RATE_LIMIT", "maybe"],
    ["TRUST_PROXY", "sometimes"],
    ["TRUST_PROXY", "10.0.0.0/40"],
  ])("a bad %s (%s) is a ConfigError naming the variable", (name, value) => {
    const e = configError({ [name]: value });
    expect(e.message).toMatch(new RegExp(`^\\s*${name}: `, "m"));
  });

  it.each([
    ["fewer than 16 characters", "Abc-123"],
    ["letters only", "correcthorsebatterystaple"],
    ["mixed-case letters only", "CorrectHorseBatteryStaple"],
    ["digits only", "12345678901234567890"],
    ["symbols only", "-----------------_____"],
  ])("a weak custom ADMIN_KEY (%s) stops the start with a message naming ADMIN_KEY", (_label, key) => {
    const e = configError({ ADMIN_KEY: key });
    expect(e.message).toMatch(/^\s*ADMIN_KEY: must /m);
  });

  it.each(["e2e-admin-key-0123456789", "test-admin-key-0123456789", "a-long-enough-admin-key", "0123456789abcdefgh", "Hq3vT9xLm2Zp7RwK"])(
    "a custom ADMIN_KEY of 16+ characters mixing two kinds (%s) is accepted",
    (key) => {
      expect(parseEnv({ ADMIN_KEY: key }).adminKey).toBe(key);
    },
  );

  it("names every bad variable at once", () => {
    const e = configError({ PORT: "x", ADMIN_KEY: "short" });
    expect(e.message).toContain("PORT:");
    expect(e.message).toContain("ADMIN_KEY:");
  });
});

describe("M-Pesa settings", () => {
  it("callbacks are off until a secret is set; the paybill defaults to the site's", () => {
    const e = parseEnv({});
    expect(e.mpesaCallbackSecret).toBeUndefined();
    expect(e.mpesaShortcode).toBe("880100");
    expect(parseEnv({ MPESA_CALLBACK_SECRET: "a-long-enough-secret-123", MPESA_SHORTCODE: "174379" })).toMatchObject({
      mpesaCallbackSecret: "a-long-enough-secret-123",
      mpesaShortcode: "174379",
    });
  });

  it("a short or URL-unsafe secret and a shortcode that is not a paybill number are refused at start-up", () => {
    expect(() => parseEnv({ MPESA_CALLBACK_SECRET: "short" })).toThrow(/MPESA_CALLBACK_SECRET: must be at least 16/);
    expect(() => parseEnv({ MPESA_CALLBACK_SECRET: "has/a/slash/in/it/xxxx" })).toThrow(/MPESA_CALLBACK_SECRET: must be letters/);
    expect(() => parseEnv({ MPESA_SHORTCODE: "12ab" })).toThrow(/MPESA_SHORTCODE/);
  });

  it("a callback secret with a word Safaricom refuses in callback URLs stops start-up, naming the variable", () => {
    for (const secret of ["my-mpesa-callbacks-2026", "M-PESA-callbacks-2026-xyz", "SafaricomCallbacks2026xyz", "callbacks-EXEC-2026-abcdef", "a1b2c3-cmd-d4e5f6g7h8", "outreach-sql-0123456789", "the-Query-0123456789abc"]) {
      expect(configError({ MPESA_CALLBACK_SECRET: secret }).message).toMatch(
        /MPESA_CALLBACK_SECRET: must not contain '[^']+': Safaricom refuses callback URLs containing M-PESA, mpesa, Safaricom, exe, exec, cmd, sql or query/,
      );
    }
    expect(configError({ MPESA_CALLBACK_SECRET: "my-mpesa-callbacks-2026" }).message).toContain("must not contain 'mpesa'");
    expect(parseEnv({ MPESA_CALLBACK_SECRET: "k7Qm2-xP9w_Lr4tZ8vB3" }).mpesaCallbackSecret).toBe("k7Qm2-xP9w_Lr4tZ8vB3");
  });

  it("MPESA_SHORTCODE takes a comma-separated list (a paybill and a till); the first is the paybill", () => {
    expect(parseEnv({ MPESA_SHORTCODE: "880100, 5123456" })).toMatchObject({ mpesaShortcode: "880100", mpesaShortcodes: ["880100", "5123456"] });
    expect(parseEnv({})).toMatchObject({ mpesaShortcodes: ["880100"] });
    expect(configError({ MPESA_SHORTCODE: "880100,till" }).message).toMatch(/MPESA_SHORTCODE: must be the paybill's 5-7 digit business number, or several/);
    expect(configError({ MPESA_SHORTCODE: "880100," }).message).toMatch(/MPESA_SHORTCODE/);
  });

  it("backups: off until BACKUP_DIR is set, hourly and keeping 48 by default; durations are checked", () => {
    expect(parseEnv({})).toMatchObject({ backupDir: undefined, backupEveryMs: 3_600_000, backupKeep: 48 });
    expect(parseEnv({ BACKUP_DIR: "/srv/backups", BACKUP_EVERY: "30m", BACKUP_KEEP: "7" })).toMatchObject({
      backupDir: "/srv/backups",
      backupEveryMs: 1_800_000,
      backupKeep: 7,
    });
    expect(parseEnv({ BACKUP_EVERY: "1d" }).backupEveryMs).toBe(86_400_000);
    expect(configError({ BACKUP_EVERY: "hourly" }).message).toMatch(/BACKUP_EVERY: must be a duration such as 30m, 1h or 1d/);
    expect(configError({ BACKUP_EVERY: "30s" }).message).toMatch(/BACKUP_EVERY: must be at least 1m/);
    expect(configError({ BACKUP_KEEP: "0" }).message).toMatch(/BACKUP_KEEP/);
  });

  it("automatic approval is off by default; a bare sales-open date is midnight in Nairobi", () => {
    expect(parseEnv({})).toMatchObject({ autoApproveVerified: false, eventSalesOpen: null });
    expect(parseEnv({ AUTO_APPROVE_VERIFIED: "on", EVENT_SALES_OPEN: "2026-11-01" })).toMatchObject({
      autoApproveVerified: true,
      eventSalesOpen: "2026-10-31T21:00:00.000Z",
    });
    expect(configError({ EVENT_SALES_OPEN: "first of November" }).message).toMatch(/EVENT_SALES_OPEN/);
  });
});

describe("M-Pesa Express settings", () => {
  const keys = { DARAJA_CONSUMER_KEY: "ck-123456", DARAJA_CONSUMER_SECRET: "cs-123456", DARAJA_PASSKEY: "pk-123456", MPESA_CALLBACK_SECRET: "callback-secret-0123456789" };

  it("is off with no Daraja keys, and nothing else changes", () => {
    expect(parseEnv({}).stk).toBeNull();
    expect(parseEnv({ MPESA_CALLBACK_SECRET: keys.MPESA_CALLBACK_SECRET }).stk).toBeNull();
  });

  it("is on with the three keys and a callback secret: the first shortcode, paybill, the production host", () => {
    const stk = parseEnv({ ...keys, MPESA_SHORTCODE: "880100, 5123456", PUBLIC_URL: "https://site.example/" }).stk;
    expect(stk).toEqual({
      consumerKey: "ck-123456",
      consumerSecret: "cs-123456",
      passkey: "pk-123456",
      baseUrl: "https://api.safaricom.co.ke",
      shortcode: "880100",
      type: "paybill",
      callbackUrl: "https://site.example/api/pay/stk/callback-secret-0123456789",
    });
    expect(parseEnv({ ...keys, MPESA_STK_TYPE: "till", DARAJA_BASE_URL: "https://sandbox.safaricom.co.ke/" }).stk).toMatchObject({ type: "till", baseUrl: "https://sandbox.safaricom.co.ke" });
  });

  it.each([
    [{ ...keys, DARAJA_PASSKEY: "" }, "DARAJA_PASSKEY: must be set too"],
    [{ ...keys, MPESA_CALLBACK_SECRET: "" }, "MPESA_CALLBACK_SECRET: must be set for M-Pesa Express"],
    [{ ...keys, MPESA_STK_TYPE: "buygoods" }, "MPESA_STK_TYPE: must be paybill or till"],
    [{ ...keys, DARAJA_BASE_URL: "api.safaricom.co.ke" }, "DARAJA_BASE_URL: must be an http(s) address"],
    [{ ...keys, DARAJA_CONSUMER_KEY: "has space" }, "DARAJA_CONSUMER_KEY: must be the consumer key"],
  ])("stops the start naming the variable (%#)", (source, message) => {
    expect(configError(source as NodeJS.ProcessEnv).message).toContain(message);
  });
});
