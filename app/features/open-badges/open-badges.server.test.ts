import crypto from "node:crypto";
import zlib from "node:zlib";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { staff } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { loader as assertionLoader } from "~/routes/badges/open-badges-assertion";
import { loader as classLoader } from "~/routes/badges/open-badges-class";
import { loader as issuerLoader } from "~/routes/badges/open-badges-issuer";
import { loader as teamImageLoader } from "~/routes/badges/badge-image";
import { plainKitPng } from "../../../tests/support/kit-png";
import { freshApp } from "../../../tests/support/reset";
import { seedTeamBadges } from "../../../db/seed/team-badges";
import { BadgeOrderSchema } from "../event-badges/badge-order.schema";
import { attachBadgeAssets, readOrderAsset, setBadgeOrderStatus, submitBadgeOrder } from "../event-badges/badge-orders.server";
import { bakePng, NotAPngError, readBakedPng } from "../badge-art/bake.server";
import { findAward, revokeSupporterBadge, shareCardFor } from "./open-badges.server";
import { awardIdOfBaked, VERIFY_TEXT } from "./verify.server";
import { loader as credentialLoader } from "~/routes/badges/open-badges-credential";
import { loader as keysLoader } from "~/routes/badges/open-badges-keys";
import { createLocalJWKSet, jwtVerify } from "jose";
import fs from "node:fs";
import path from "node:path";

const STAFF = staff("203.0.113.9");
let codes = 0;
const nextCode = () => `QB${String(++codes).padStart(8, "0")}`;

let db: Db;
beforeEach(async () => {
  db = await freshApp();
  await seedTeamBadges(db);
});

/** A PNG's chunks read with code of the test's own (not the site's reader). */
function chunksOf(png: Buffer) {
  const out: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    out.push({ type: png.toString("ascii", at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return out;
}

const get = (loader: (args: never) => unknown, url: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
  loader({ request: new Request(url, { headers }), url: new URL(url), params, context: { db, clientAddress: "198.51.100.7" } } as never) as Promise<Response>;

async function approvedOrder(email = "amani@example.org") {
  const input = BadgeOrderSchema.parse({ tierKey: "t4", name: "Amani Wanjiku", email, paymentReference: nextCode() });
  const { id } = await submitBadgeOrder(db, input, null);
  const png = await plainKitPng();
  await attachBadgeAssets(db, id, { badge: png, poster: png }, STAFF);
  await setBadgeOrderStatus(db, id, "approved", STAFF);
  return id;
}

describe("baking", () => {
  it("puts one uncompressed iTXt 'openbadges' chunk in, which libpng reads back, and leaves the picture as it was", async () => {
    const png = await plainKitPng();
    const url = "https://site.test/badges/assertions/b5692.json";
    const baked = bakePng(bakePng(png, "https://site.test/old"), url);
    const chunks = chunksOf(baked).filter((c) => c.type === "iTXt");
    expect(chunks).toHaveLength(1);
    const data = chunks[0]!.data;
    // keyword, NUL, compression flag 0, method 0, empty language tag, empty translated keyword, text
    expect(data.toString("latin1", 0, 11)).toBe("openbadges\0");
    expect([...data.subarray(11, 15)]).toEqual([0, 0, 0, 0]);
    expect(data.subarray(15).toString("utf8")).toBe(url);
    expect((await sharp(baked).metadata()).comments).toEqual([{ keyword: "openbadges", text: url }]);
    // The same pixels: compared by digest, as toEqual walks a 3.5 MB buffer one byte at a time (16 s).
    const pixels = async (image: Buffer) => crypto.createHash("sha256").update(await sharp(image).raw().toBuffer()).digest("hex");
    expect(await pixels(baked)).toBe(await pixels(png));
    expect(readBakedPng(baked)).toBe(url);
    expect(readBakedPng(png)).toBeNull();
  });

  it("refuses what is not a whole PNG, a damaged chunk, and a compressed badge chunk", async () => {
    const png = await plainKitPng();
    expect(() => readBakedPng(Buffer.from("GIF89a not a png"))).toThrow(NotAPngError);
    expect(() => readBakedPng(png.subarray(0, png.length - 20))).toThrow("cut short");
    const baked = bakePng(png, "https://site.test/x");
    const damaged = Buffer.from(baked);
    damaged[60] = damaged[60]! ^ 0xff;
    expect(() => readBakedPng(damaged)).toThrow(NotAPngError);
    // A compressed iTXt chunk (flag 1) where the rules forbid it.
    const body = Buffer.concat([Buffer.from("openbadges\0", "latin1"), Buffer.from([1, 0, 0, 0]), zlib.deflateSync("https://site.test/x")]);
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length);
    head.write("iTXt", 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), body])));
    const compressed = Buffer.concat([png.subarray(0, 33), head, body, crc, png.subarray(33)]);
    expect(() => readBakedPng(compressed)).toThrow("compressed");
  });
});

describe("Open Badges 2.0 documents", () => {
  it("the issuer, a team badge's class and assertion have every required field, as JSON-LD open to other sites", async () => {
    const origin = env().publicUrl;
    const issuer = await get(issuerLoader, `${origin}/badges/issuer.json`, {});
    expect(issuer.headers.get("content-type")).toBe("application/ld+json; charset=utf-8");
    expect(issuer.headers.get("access-control-allow-origin")).toBe("*");
    expect(await issuer.json()).toMatchObject({
      "@context": "https://w3id.org/openbadges/v2",
      id: `${origin}/badges/issuer.json`,
      type: "Issuer",
      name: expect.any(String),
      url: origin,
      email: expect.stringContaining("@"),
    });

    const cls = await (await get(classLoader, `${origin}/badges/classes/b5692.json`, { file: "b5692.json" })).json();
    expect(cls).toMatchObject({
      "@context": "https://w3id.org/openbadges/v2",
      id: `${origin}/badges/classes/b5692.json`,
      type: "BadgeClass",
      name: expect.any(String),
      description: expect.any(String),
      image: `${origin}/open/badges/b5692.png`,
      criteria: { narrative: expect.any(String) },
      issuer: `${origin}/badges/issuer.json`,
    });

    const res = await get(assertionLoader, `${origin}/badges/assertions/b5692.json`, { file: "b5692.json" }, { accept: "application/json" });
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const a = (await res.json()) as Record<string, any>;
    expect(a).toMatchObject({ id: `${origin}/badges/assertions/b5692.json`, type: "Assertion", badge: cls.id, verification: { type: "hosted" } });
    expect(Number.isNaN(Date.parse(a.issuedOn))).toBe(false);
    // No email on record for the holder: their public verify page, hashed with the salt.
    expect(a.recipient).toMatchObject({ type: "url", hashed: true });
    const expected = crypto.createHash("sha256").update(`${origin}/badges/verify/b5692${a.recipient.salt}`).digest("hex");
    expect(a.recipient.identity).toBe(`sha256$${expected}`);

    // The badge's PNG (served byte for byte) carries this assertion's address.
    const image = await get(teamImageLoader, `${origin}/open/badges/b5692.png`, { file: "b5692.png" });
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).comments).toEqual([{ keyword: "openbadges", text: a.id }]);
    // The smaller sizes too (a resize drops the chunk, so each size is baked when stored).
    const small = await get(teamImageLoader, `${origin}/open/badges/b5692.png?w=256`, { file: "b5692.png" });
    expect((await sharp(Buffer.from(await small.arrayBuffer())).metadata()).comments).toEqual([{ keyword: "openbadges", text: a.id }]);
  });

  it("a supporter's assertion hashes their email, names no one, and their emailed badge is baked with it", async () => {
    const id = await approvedOrder("Amani@Example.org");
    const origin = env().publicUrl;
    const a = (await (await get(assertionLoader, `${origin}/badges/assertions/${id}.json`, { file: `${id}.json` })).json()) as Record<string, any>;
    expect(a).toMatchObject({ type: "Assertion", badge: `${origin}/badges/classes/tier-t4.json`, recipient: { type: "email", hashed: true } });
    expect(a.recipient.identity).toBe(`sha256$${crypto.createHash("sha256").update(`amani@example.org${a.recipient.salt}`).digest("hex")}`);
    const text = JSON.stringify(a);
    // The payment code typed with the order (the whole code: a random order id may hold two of its letters).
    const code = `QB${String(codes).padStart(8, "0")}`;
    for (const secret of ["Amani", "amani@example.org", code]) expect(text).not.toContain(secret);
    const badge = await readOrderAsset(db, id, "badge", null, true);
    expect(readBakedPng(badge)).toBe(a.id);
    expect(await awardIdOfBaked(db, badge)).toEqual({ id });
    // The verify page names the holder by first name only.
    expect((await findAward(db, id))?.holder).toBe("Amani");
  });

  it("unknown ids, pending orders and other sites' badge records are not ours", async () => {
    const origin = env().publicUrl;
    for (const file of ["nope.json", "BO-ZZZZZZ.json", "..%2Fsite.db.json", "b5692.png"]) {
      const res = await get(assertionLoader, `${origin}/badges/assertions/${file}`, { file });
      expect(res.status, file).toBe(404);
      expect(await res.json()).toEqual({ ok: false, error: "No badge with that id." });
    }
    const input = BadgeOrderSchema.parse({ tierKey: "t1", name: "Pending", email: "p@example.org", paymentReference: nextCode() });
    const { id } = await submitBadgeOrder(db, input, null);
    expect(await findAward(db, id)).toBeNull();
    const png = await plainKitPng();
    expect(await awardIdOfBaked(db, bakePng(png, `${origin}/badges/assertions/BO-ZZZZZZ.json`))).toEqual({ problem: VERIFY_TEXT.notOurs });
    expect(await awardIdOfBaked(db, bakePng(png, "https://elsewhere.example/badges/assertions/b5692.json"))).toEqual({ problem: VERIFY_TEXT.notOurs });
    expect(await awardIdOfBaked(db, bakePng(png, JSON.stringify({ id: "https://elsewhere.example/a.json", recipient: "me" })))).toEqual({ problem: VERIFY_TEXT.notOurs });
    expect(await awardIdOfBaked(db, png)).toEqual({ problem: VERIFY_TEXT.notBaked });
  });

  it("revoked, an assertion is reduced to its id, revoked: true and the reason; the reason is required", async () => {
    const id = await approvedOrder();
    await expect(revokeSupporterBadge(db, id, "  ", STAFF)).rejects.toThrow("Give the reason");
    await revokeSupporterBadge(db, id, "Payment reversed by M-Pesa.", STAFF);
    const origin = env().publicUrl;
    const a = await (await get(assertionLoader, `${origin}/badges/assertions/${id}.json`, { file: `${id}.json` })).json();
    expect(a).toEqual({ "@context": "https://w3id.org/openbadges/v2", id: `${origin}/badges/assertions/${id}.json`, type: "Assertion", revoked: true, revocationReason: "Payment reversed by M-Pesa." });
    expect((await findAward(db, id))?.revoked?.reason).toBe("Payment reversed by M-Pesa.");
    await expect(revokeSupporterBadge(db, id, "again", STAFF)).rejects.toThrow("not revoked yet");
    // An approved order later cancelled reads as revoked too (its badge may be out there).
    const other = await approvedOrder("b@example.org");
    await setBadgeOrderStatus(db, other, "rejected", STAFF, { note: "Payment not found." });
    expect((await findAward(db, other))?.revoked?.reason).toBe("The order this badge was for was cancelled.");
  });
});

describe("Open Badges 3.0", () => {
  it("a credential is a VC-JWT signed with the key the site publishes, and a revoked one is on the revocation list", async () => {
    const origin = env().publicUrl;
    const id = await approvedOrder("ob3@example.org");
    const res = await get(credentialLoader, `${origin}/badges/credentials/${id}.jwt`, { file: `${id}.jwt` });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vc+jwt");
    const jwt = await res.text();
    const jwks = await (await get(keysLoader, `${origin}/badges/jwks.json`, {})).json();
    expect(jwks.keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA" });
    expect(jwks.keys[0].d).toBeUndefined();
    // The issuer profile publishes the same key.
    const issuer = await (await get(issuerLoader, `${origin}/badges/issuer.json`, {})).json();
    expect(issuer.verificationMethod[0].publicKeyJwk).toEqual(jwks.keys[0]);
    const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet({ keys: [issuer.verificationMethod[0].publicKeyJwk] }));
    expect(protectedHeader.kid).toBe(jwks.keys[0].kid);
    expect(protectedHeader.alg).toBe("EdDSA");
    const vc = payload.vc as Record<string, any>;
    expect(vc.type).toEqual(["VerifiableCredential", "OpenBadgeCredential"]);
    expect(vc.issuer.id).toBe(`${origin}/badges/issuer.json`);
    expect(vc.credentialSubject.achievement).toMatchObject({ id: `${origin}/badges/classes/tier-t4.json`, type: ["Achievement"] });
    expect(vc.credentialSubject.identifier[0].identityHash).toBe(`sha256$${crypto.createHash("sha256").update(`ob3@example.org${vc.credentialSubject.identifier[0].salt}`).digest("hex")}`);
    expect(vc.credentialStatus).toEqual({ id: `${origin}/badges/revocations.json`, type: "1EdTechRevocationList" });
    // A token altered after signing fails verification.
    const [h, p, sig] = jwt.split(".");
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: "someone else" })).toString("base64url")}.${sig}`;
    await expect(jwtVerify(forged, createLocalJWKSet(jwks))).rejects.toThrow();
    expect(p).toBeTruthy();

    const listBefore = await (await get(keysLoader, `${origin}/badges/revocations.json`, {})).json();
    expect(listBefore.revokedCredentials.map((c: { id: string }) => c.id)).not.toContain(vc.id);
    await revokeSupporterBadge(db, id, "Refunded.", STAFF);
    const listAfter = await (await get(keysLoader, `${origin}/badges/revocations.json`, {})).json();
    expect(listAfter.revokedCredentials).toContainEqual({ id: vc.id, revocationReason: "Refunded." });
  });

  it("the signing key is made once, private to the site (mode 0600 in the data folder on SQLite)", async () => {
    const origin = env().publicUrl;
    const a = await (await get(keysLoader, `${origin}/badges/jwks.json`, {})).json();
    const b = await (await get(keysLoader, `${origin}/badges/jwks.json`, {})).json();
    expect(a).toEqual(b);
    if (!process.env.TEST_DATABASE_URL) {
      const stat = fs.statSync(path.join(env().dataDir, "ob-signing-key"));
      expect(stat.mode & 0o777).toBe(0o600);
    }
  });
});

describe("share cards", () => {
  it("a badge's link-preview card is a 1200x630 PNG under 300 kB, drawn anew when it is revoked", async () => {
    const team = await shareCardFor(db, "b5692");
    expect(await sharp(team!.png).metadata()).toMatchObject({ format: "png", width: 1200, height: 630 });
    expect(team!.png.length).toBeLessThan(300 * 1024);
    const id = await approvedOrder("card@example.org");
    const before = await shareCardFor(db, id);
    expect(await sharp(before!.png).metadata()).toMatchObject({ width: 1200, height: 630 });
    expect(before!.png.length).toBeLessThan(300 * 1024);
    await revokeSupporterBadge(db, id, "Refunded.", STAFF);
    const after = await shareCardFor(db, id);
    expect(after!.etag).not.toBe(before!.etag);
    expect(after!.png.equals(before!.png)).toBe(false);
    expect(await shareCardFor(db, "no-such-badge")).toBeNull();
  });
});
