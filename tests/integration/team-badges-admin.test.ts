import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { readBakedPng } from "~/features/badge-art/bake.server";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import type { Db } from "~/lib/db/db.server";
import * as editor from "~/routes/admin/team-badges";
import * as assertionRoute from "~/routes/badges/open-badges-assertion";
import * as badgeImage from "~/routes/badges/badge-image";
import * as badgesPage from "~/routes/badges/badges";
import * as shareApi from "~/routes/api/generate-badge-share";
import * as badgeShare from "~/routes/share/badge-share";
import { seedTeamBadges } from "../../db/seed/team-badges";
import { ORIGIN, args, get, jsonPost, reply } from "../support/http";
import { freshApp } from "../support/reset";

// Staff create, edit and retire team badges on /admin/team-badges with plain (multipart) forms:
// an id they choose stays the badge's for good; a picture is checked like a portrait.
const STAFF = "10.0.0.42";
let db: Db;
let cookie: string;

beforeEach(async () => {
  db = await freshApp({ SMTP_URL: undefined });
  await seedTeamBadges(db);
  cookie = (await createAdminSessionCookie(db, get("/admin"), STAFF)).split(";")[0]!;
});

const picture = (colour = "#3366aa", format: "png" | "jpeg" = "jpeg") =>
  sharp({ create: { width: 800, height: 500, channels: 3, background: colour } })
    .withMetadata({ exif: { IFD0: { Copyright: "secret camera owner" } } })
    [format]()
    .toBuffer();

/** The editor's form as a browser sends it: multipart, with its length, from this site's page. */
async function send(fields: Record<string, string>, file?: { bytes: Buffer; name: string; type: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append("image", new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
  else form.append("image", new File([], "", { type: "application/octet-stream" }));
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const request = new Request(`${ORIGIN}/admin/team-badges`, {
    method: "POST",
    body,
    headers: { Origin: ORIGIN, Cookie: cookie, "content-type": encoded.headers.get("content-type")!, "content-length": String(body.length) },
  });
  return reply(await editor.action(args(request, STAFF)));
}

const NEW = { intent: "create", title: "Team Lead", subtitle: "Articles and Blogs", category: "community", description: "Leads the writers.", earned: "on", ownerName: "Amani Wekesa", holderEmail: "Amani@Example.org", issuedAt: "Aug 19, 2025", progress: "0" };

const image = async (id: string) => {
  const res = await badgeImage.loader({ ...args(get(`/open/badges/${id}.png`)), params: { file: `${id}.png` } });
  return { status: res.status, bytes: res.status === 200 ? Buffer.from(await res.arrayBuffer()) : Buffer.alloc(0) };
};
const assertion = async (id: string) => {
  const res = await assertionRoute.loader({ ...args(get(`/badges/assertions/${id}.json`)), params: { file: `${id}.json` } });
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as Record<string, unknown>) : null };
};

describe("creating a team badge", () => {
  it("with the id holders already share and a picture: every public address of it answers", async () => {
    const created = await send({ ...NEW, id: "B6D56" }, { bytes: await picture(), name: "badge.jpg", type: "image/jpeg" });
    expect(created).toMatchObject({ status: 200, data: { status: "success", message: "Created badge b6d56.", result: { id: "b6d56" } } });

    const page = await badgesPage.loader(args(get("/badges?id=b6d56")));
    expect(page.selected?.badge).toMatchObject({ id: "b6d56", title: "Team Lead", subtitle: "Articles and Blogs", ownerName: "Amani Wekesa", issuedAt: "Aug 19, 2025", earned: true });
    expect(page.verify).toMatchObject({ status: "valid" });
    const share = await badgeShare.loader({ ...args(get("/share/b6d56.html")), params: { file: "b6d56.html" } });
    expect(share.status).toBe(200);
    expect(await share.text()).toContain("/badges?id=b6d56");

    // The uploaded picture, re-encoded: a 1080x1080 PNG, its camera data gone, its record baked in.
    const png = await image("b6d56");
    expect(png.status).toBe(200);
    const meta = await sharp(png.bytes).metadata();
    expect(meta).toMatchObject({ format: "png", width: 1080, height: 1080 });
    expect(meta.exif).toBeUndefined();
    expect(png.bytes.includes(Buffer.from("secret camera owner"))).toBe(false);
    expect(readBakedPng(png.bytes)).toBe("http://site.test/badges/assertions/b6d56.json");
    // The whole picture is kept, fitted on a transparent square (800x500 leaves bands above and below).
    const [r, g, b, a] = await sharp(png.bytes).ensureAlpha().extract({ left: 540, top: 540, width: 1, height: 1 }).raw().toBuffer();
    expect([r, g, b].map((v, i) => Math.abs(v! - [0x33, 0x66, 0xaa][i]!) <= 3)).toEqual([true, true, true]);
    expect(a).toBe(255);
    const [, , , band] = await sharp(png.bytes).ensureAlpha().extract({ left: 540, top: 20, width: 1, height: 1 }).raw().toBuffer();
    expect(band).toBe(0);

    const record = await assertion("b6d56");
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({ type: "Assertion", recipient: { type: "email", hashed: true } });
    expect((await shareApi.action(args(jsonPost("/api/generate_badge_share.php", { id: "b6d56" }, { "X-Admin-Key": "test-admin-key-0123456789" })))).status).toBe(200);
  });

  it("an id already taken (any case, a seed badge's too) is refused: ids are never given twice", async () => {
    const again = await send({ ...NEW, id: "B5692" });
    expect(again).toMatchObject({ status: 409, data: { status: "error", result: { id: "+new" } } });
    expect(again.data.message).toBe("The id b5692 is already taken: a badge's id is fixed once issued, and never given twice.");
    expect(again.data.values).toMatchObject({ title: "Team Lead", ownerName: "Amani Wekesa" });
  });

  it("with no id: one is made in the old site's shape", async () => {
    const created = await send({ ...NEW, id: "", earned: "", ownerName: "", issuedAt: "", progress: "40" });
    expect(created.status).toBe(200);
    const id = created.data.result!.id;
    expect(id).toMatch(/^b[0-9a-f]{4}$/);
    const row = await db.selectFrom("team_badges").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ earned: 0, progress: 40, owner_name: "", image_file: null });
    // Not issued: no Open Badges record, but its picture (drawn) answers.
    expect((await assertion(id)).status).toBe(404);
    expect((await image(id)).status).toBe(200);
  });

  it.each([
    ["an SVG (never accepted)", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), "image/svg+xml", 400, "Please choose an image file (PNG, JPG, or WEBP)."],
    ["text named .png", Buffer.from("not a picture at all"), "image/png", 400, "Please choose an image file (PNG, JPG, or WEBP)."],
    ["a picture over 6 MB", Buffer.alloc(6 * 1024 * 1024 + 10, 1), "image/png", 413, "Please choose an image smaller than 6MB."],
  ])("refuses %s as its picture, and creates nothing", async (_label, bytes, type, status, message) => {
    const res = await send({ ...NEW, id: "b1234" }, { bytes, name: "x.png", type });
    expect(res).toMatchObject({ status, data: { status: "error", message, result: { id: "+new" } } });
    expect(await db.selectFrom("team_badges").select("id").where("id", "=", "b1234").executeTakeFirst()).toBeUndefined();
  });

  it("an issued badge needs its holder and date; a bad id is named", async () => {
    expect((await send({ ...NEW, id: "b1235", ownerName: "" })).data.message).toBe("An issued badge needs its holder.");
    expect((await send({ ...NEW, id: "b1235", issuedAt: "" })).data.message).toBe("An issued badge needs its issue date.");
    expect((await send({ ...NEW, id: "b/../x" })).data.message).toBe("Badge id may use letters, digits, dashes and underscores only.");
  });
});

describe("editing and retiring a team badge", () => {
  it("changes its words and picture, never its id; retiring hides it, keeps its links and says revoked; bringing it back undoes that", async () => {
    await send({ ...NEW, id: "b6d56" });
    const drawn = await image("b6d56");
    const edited = await send({ intent: "details", id: "b6d56", title: "Team Lead Writers", subtitle: "Blogs", category: "media", description: "New words.", progress: "100" }, { bytes: await picture("#aa3322", "png"), name: "new.png", type: "image/png" });
    expect(edited).toMatchObject({ status: 200, data: { status: "success", message: "Details saved.", result: { id: "b6d56" } } });
    const row = await db.selectFrom("team_badges").selectAll().where("id", "=", "b6d56").executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title: "Team Lead Writers", subtitle: "Blogs", category: "media", description: "New words.", owner_name: "Amani Wekesa", image_file: expect.stringMatching(/^b6d56-[0-9a-f]{16}\.png$/) });
    const now = await image("b6d56");
    expect(now.bytes.equals(drawn.bytes)).toBe(false);

    const retired = await send({ intent: "retire", id: "b6d56", reason: "" });
    expect(retired).toMatchObject({ status: 200, data: { status: "success" } });
    const list = await badgesPage.loader(args(get("/badges?won=0")));
    expect(list.badges.map((b) => b.id)).not.toContain("b6d56");
    const shared = await badgesPage.loader(args(get("/badges?id=b6d56")));
    expect(shared.verify).toMatchObject({ status: "revoked", reason: expect.stringMatching(/^Retired by /) });
    expect((await badgeShare.loader({ ...args(get("/share/b6d56.html")), params: { file: "b6d56.html" } })).status).toBe(200);
    expect((await image("b6d56")).status).toBe(200);
    expect((await assertion("b6d56")).body).toMatchObject({ revoked: true, revocationReason: expect.stringMatching(/^Retired by /) });
    // Its id stays taken.
    expect((await send({ ...NEW, id: "b6d56" })).status).toBe(409);

    expect((await send({ intent: "unretire", id: "b6d56" })).data.message).toBe("Back on the badges page.");
    expect((await badgesPage.loader(args(get("/badges?won=0")))).badges.map((b) => b.id)).toContain("b6d56");
    expect((await assertion("b6d56")).body).not.toHaveProperty("revoked", true);
  });

  it("issues a badge not yet earned to a holder", async () => {
    const res = await send({ intent: "issue", id: "c7104", ownerName: "Baraka Njoroge", holderEmail: "", issuedAt: "2 Feb 2026" });
    expect(res.data).toMatchObject({ status: "success", message: "Issued to Baraka Njoroge.", result: { id: "c7104" } });
    expect((await badgesPage.loader(args(get("/badges?id=c7104")))).verify).toMatchObject({ status: "valid" });
  });

  it("the editor lists every badge, issued or not, with what staff need", async () => {
    const data = await editor.loader(args(get("/admin/team-badges", { Cookie: cookie }), STAFF));
    if (!data) throw new Error("expected the editor");
    expect(data.badges).toHaveLength(14);
    expect(data.badges.find((b) => b.id === "c7104")).toMatchObject({ earned: false, retiredAt: null, uploadedImage: false });
  });
});
