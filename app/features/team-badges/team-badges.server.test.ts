import { staff } from "~/lib/core/actor";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "~/features/activity/activity.server";
import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { seedTeamBadges } from "../../../db/seed/team-badges";
import { args, get, jsonPost, readJson, reply, thrown, formPost } from "../../../tests/support/http";
import { freshApp } from "../../../tests/support/reset";
import { expectSharePagePolicy } from "../../../tests/support/share-pages";
import * as imageRoute from "../../routes/badges/badge-image";
import * as badgesRoute from "../../routes/badges/badges";
import * as shareApi from "../../routes/api/generate-badge-share";
import * as shareRoute from "../../routes/share/badge-share";
import { teamBadgeSeed } from "./seed-data";
import { badgeDownloadFilename, linkedInAddUrl, parseIssuedDate } from "./team-badges";
import { GenerateBadgeShareSchema, parseBadgeQuery } from "./team-badges.schema";
import {
  badgeSharePage,
  findTeamBadge,
  generateBadgeShare,
  listTeamBadges,
  readBadgeShare,
  verifyTeamBadge,
} from "./team-badges.server";
import { storedNames } from "../../../tests/support/stored-files";

const ADMIN = { "x-admin-key": "test-admin-key-0123456789" };
const withParams = (sent: Request, params: Record<string, string>) => ({ ...args(sent), params });

let db: Db;
beforeAll(async () => {
  db = await freshApp();
  await seedTeamBadges(db);
});

describe("seed", () => {
  it("adds the nine issued team-lead badges and some open ones", async () => {
    const all = await listTeamBadges(db, {});
    const issued = all.filter((b) => b.earned);
    expect(all).toHaveLength(teamBadgeSeed.length);
    expect(issued).toHaveLength(9);
    expect(new Set(issued.map((b) => b.title))).toEqual(new Set(["Team Lead", "Team Lead Founders", "Team Lead coFounders"]));
    expect(issued.every((b) => b.ownerName && parseIssuedDate(b.issuedAt))).toBe(true);
    expect(all.filter((b) => !b.earned).every((b) => b.ownerName === "" && b.progress <= 80)).toBe(true);
    expect(all.every((b) => /^[a-z]\d{4}$/.test(b.id))).toBe(true);
  });

  it("is idempotent: a second run duplicates nothing and keeps staff edits; a missing id comes back", async () => {
    await db.updateTable("team_badges").set({ owner_name: "Edited By Staff" }).where("id", "=", "b5692").execute();
    await db.deleteFrom("team_badges").where("id", "=", "m3321").execute();
    await seedTeamBadges(db);
    await seedTeamBadges(db);
    const rows = await db.selectFrom("team_badges").select(["id", "owner_name"]).execute();
    expect(rows).toHaveLength(teamBadgeSeed.length);
    expect(rows.find((r) => r.id === "b5692")?.owner_name).toBe("Edited By Staff");
    expect(rows.find((r) => r.id === "m3321")?.owner_name).toBe("Daniel Mwangi");
    await db.updateTable("team_badges").set({ owner_name: "Brian Kiprotich" }).where("id", "=", "b5692").execute();
  });
});

describe("listing and filters", () => {
  const ids = (list: { id: string }[]) => list.map((b) => b.id).sort();

  it("searches title, holder and id, ignoring case", async () => {
    expect(ids(await listTeamBadges(db, { q: "LEAD FOUNDERS", wonOnly: true }))).toEqual(["b5692", "b5693", "e1207"]);
    expect(await listTeamBadges(db, { q: "founders", wonOnly: true })).toHaveLength(6);
    expect(ids(await listTeamBadges(db, { q: "cofounders", wonOnly: true }))).toEqual(["c4410", "m3318", "v2251"]);
    expect(ids(await listTeamBadges(db, { q: "WANJIRŨ", wonOnly: true }))).toEqual(["b5693"]);
    expect(ids(await listTeamBadges(db, { q: "B5692", wonOnly: true }))).toEqual(["b5692"]);
    // Description and subtitle text is not searched.
    expect(await listTeamBadges(db, { q: "vespers", wonOnly: false })).toEqual([]);
  });

  it("'Show only won badges' hides the open badges; off shows every badge", async () => {
    const won = await listTeamBadges(db, { wonOnly: true });
    const all = await listTeamBadges(db, { wonOnly: false });
    expect(won.every((b) => b.earned)).toBe(true);
    expect(won).toHaveLength(9);
    expect(all.length).toBeGreaterThan(won.length);
    expect(ids(await listTeamBadges(db, { q: "contributor", wonOnly: true }))).toEqual([]);
    expect(ids(await listTeamBadges(db, { q: "contributor", wonOnly: false }))).toHaveLength(4);
  });

  it("filters by category", async () => {
    expect(ids(await listTeamBadges(db, { category: "media", wonOnly: true }))).toEqual(["m3318", "m3321"]);
    expect(ids(await listTeamBadges(db, { category: "media", wonOnly: false }))).toEqual(["m3318", "m3321", "m7103"]);
    expect(await listTeamBadges(db, { category: "all", wonOnly: true })).toHaveLength(9);
    const dev = await listTeamBadges(db, { category: "dev", q: "founders", wonOnly: true });
    expect(ids(dev)).toEqual(["b5692", "b5693"]);
  });

  it("reads the URL: won is on unless the last value is 0; unknown categories mean all", () => {
    const p = (s: string) => parseBadgeQuery(new URLSearchParams(s));
    expect(p("").wonOnly).toBe(true);
    expect(p("won=0").wonOnly).toBe(false);
    expect(p("won=0&won=1").wonOnly).toBe(true);
    expect(p("category=MEDIA").category).toBe("media");
    expect(p("category=<x>").category).toBe("all");
    expect(p("id=../etc").id).toBe("");
    expect(p(`q=${"a".repeat(500)}`).q).toBe("");
  });
});

describe("verify", () => {
  it("is an exact id match that ignores case", async () => {
    const valid = await verifyTeamBadge(db, "B5692");
    expect(valid.status).toBe("valid");
    expect(valid.status === "valid" && valid.badge).toMatchObject({ id: "b5692", title: "Team Lead Founders", ownerName: "Brian Kiprotich", issuedAt: "12 Mar 2025" });
    expect((await verifyTeamBadge(db, " b5692 ")).status).toBe("valid");
    expect((await verifyTeamBadge(db, "b569")).status).toBe("not-found");
    expect((await verifyTeamBadge(db, "b56921")).status).toBe("not-found");
    expect((await verifyTeamBadge(db, "b5692%")).status).toBe("not-found");
    expect((await verifyTeamBadge(db, "b569_")).status).toBe("not-found");
    expect((await verifyTeamBadge(db, "d7101")).status).toBe("not-issued");
  });
});

describe("links", () => {
  it("names downloads after the title with underscores, then the id", () => {
    expect(badgeDownloadFilename("Team Lead Founders", "b5692")).toBe("Team_Lead_Founders_b5692.png");
    expect(badgeDownloadFilename("Team Lead", "e1215")).toBe("Team_Lead_e1215.png");
    expect(badgeDownloadFilename("A/B: lead?", "x1")).toBe("AB_lead_x1.png");
  });

  it("builds LinkedIn's certification link with the verify URL and the issue month", async () => {
    const badge = (await findTeamBadge(db, "b5692"))!;
    const url = new URL(linkedInAddUrl(badge, { organizationName: "Org", verifyUrl: "http://site.test/badges?id=b5692" }));
    expect(url.origin + url.pathname).toBe("https://www.linkedin.com/profile/add");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: "CERTIFICATION_NAME",
      name: "Team Lead Founders",
      organizationName: "Org",
      issueYear: "2025",
      issueMonth: "3",
      certUrl: "http://site.test/badges?id=b5692",
      certId: "b5692",
    });
  });
});

describe("/badges page", () => {
  it("?id= pre-fills the search and the verify box and opens the badge", async () => {
    const { data } = reply(await badgesRoute.loader(args(get("/badges?id=B5692"))));
    expect(data.searchText).toBe("B5692");
    expect(data.verifyText).toBe("B5692");
    expect(data.verify?.status).toBe("valid");
    expect(data.selected?.badge.id).toBe("b5692");
    expect(data.selected?.links).toMatchObject({
      shareUrl: "http://site.test/share/b5692.html",
      verifyUrl: "http://site.test/badges?id=b5692",
      downloadName: "Team_Lead_Founders_b5692.png",
    });
    expect(data.badges.map((b) => b.id)).toEqual(["b5692"]);
    expect(data.isAdmin).toBe(false);
  });

  it("combines the filters from the URL", async () => {
    const { data } = reply(await badgesRoute.loader(args(get("/badges?q=lead&won=0&category=community"))));
    expect(data.badges.map((b) => b.id).sort()).toEqual(["c4410", "v2251", "v7105"]);
    expect(data.selected).toBeNull();
    expect(data.verify).toBeNull();
  });

  it("'Gen Share File' needs a staff session", async () => {
    const res = await thrown(badgesRoute.action(args(formPost("/badges?id=b5692", { intent: "gen-share", id: "b5692" }))));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/admin\?returnTo=/);
  });
});

describe("share files", () => {
  it("stores only the fields sent, atomically, and logs the activity", async () => {
    const input = GenerateBadgeShareSchema.parse({ id: "E1207", title: "Founding Evangelism Lead", description: "  Street Bible studies.  " });
    const result = await generateBadgeShare(db, input, staff("10.0.0.9"));
    expect(result).toEqual({ id: "e1207", path: "/share/e1207.html" });
    expect(await storedNames("team-badges/shares")).toEqual(["e1207.json"]);
    expect(await readBadgeShare(db, "e1207")).toMatchObject({ title: "Founding Evangelism Lead", description: "Street Bible studies." });
    expect((await readBadgeShare(db, "e1207"))?.ownerName).toBeUndefined();
    const [entry] = await listActivity(db, { limit: 1, type: "badges.generate_share" });
    expect(entry).toMatchObject({ meta: { id: "e1207", path: "/share/e1207.html" }, actorIp: "10.0.0.9" });
  });

  it("refuses unknown badges", async () => {
    await expect(generateBadgeShare(db, { id: "z9999" }, staff("x"))).rejects.toMatchObject({ code: "not_found" });
    await expect(generateBadgeShare(db, { id: "z9999" }, staff("x"))).rejects.toBeInstanceOf(DomainError);
  });

  it("the JSON API answers text on success and JSON errors with a status", async () => {
    const body = { id: "m3318", title: "Media co-founder", description: "Stories with dignity", ownerName: "Achieng O.", issuedAt: "2 Apr 2025", image: "/open/badges/m3318.png" };
    const ok = await shareApi.action(args(jsonPost("/api/generate_badge_share.php", body, ADMIN)));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe("Share file generated: /share/m3318.html");
    expect(await readBadgeShare(db, "m3318")).toMatchObject({ ownerName: "Achieng O.", issuedAt: "2 Apr 2025", image: "/open/badges/m3318.png" });

    const noKey = await readJson(await shareApi.action(args(jsonPost("/api/generate_badge_share.php", body))));
    expect(noKey).toMatchObject({ status: 401, body: { ok: false } });
    const unknown = await readJson(await shareApi.action(args(jsonPost("/api/generate_badge_share.php", { ...body, id: "q1234" }, ADMIN))));
    expect(unknown).toMatchObject({ status: 404, body: { ok: false } });
    const tooLong = await readJson(await shareApi.action(args(jsonPost("/api/generate_badge_share.php", { ...body, title: "x".repeat(121) }, ADMIN))));
    expect(tooLong).toMatchObject({ status: 400, body: { ok: false, error: "Title must be at most 120 characters." } });
    const badType = await readJson(await shareApi.action(args(jsonPost("/api/generate_badge_share.php", { ...body, ownerName: 7 }, ADMIN))));
    expect(badType.status).toBe(400);
    const badImage = await readJson(await shareApi.action(args(jsonPost("/api/generate_badge_share.php", { ...body, image: "javascript:alert(1)" }, ADMIN))));
    expect(badImage.status).toBe(400);
    const badId = await readJson(await shareApi.action(args(jsonPost("/api/generate_badge_share.php", { ...body, id: "../x" }, ADMIN))));
    expect(badId.status).toBe(400);
    const getIt = await readJson(await shareApi.loader(args(get("/api/generate_badge_share.php"))));
    expect(getIt.status).toBe(405);
  });
});

describe("/share/{id}.html", () => {
  it("escapes every value and points previews at the badge image and /badges?id=", async () => {
    await generateBadgeShare(
      db,
      { id: "c4410", title: `<script>alert("x")</script>`, description: `Fish & "chips" <b>`, ownerName: "O'Neil <img>" },
      staff("x"),
    );
    const res = await shareRoute.loader(withParams(get("/share/C4410.html"), { file: "C4410.html" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expectSharePagePolicy(res);
    const html = await res.text();
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain(`<meta property="og:description" content="Fish &amp; &quot;chips&quot; &lt;b&gt;">`);
    expect(html).toContain("O&#39;Neil &lt;img&gt;");
    expect(html).toContain(`<meta property="og:image" content="http://site.test/badges/cards/c4410.png">`);
    expect(html).toContain(`<meta property="og:url" content="http://site.test/share/c4410.html">`);
    expect(html).toContain(`<meta name="twitter:card" content="summary_large_image">`);
    expect(html).toContain(`<meta http-equiv="refresh" content="0; url=/badges?id=c4410">`);
    expect(html).toContain(`<a href="/badges?id=c4410">`);
  });

  it("uses the badge's own fields without a share file", async () => {
    const badge = (await findTeamBadge(db, "v2251"))!;
    const html = badgeSharePage(badge, null);
    expect(html).toContain("<title>Team Lead coFounders: Kevin Omondi | ");
    expect(html).toContain(`<meta property="og:title" content="Team Lead coFounders: Kevin Omondi">`);
  });

  it("answers 404 for unknown or malformed ids", async () => {
    for (const file of ["q1234.html", "b5692.htm", "..%2fsite.db.html", "b5692", ".html"]) {
      const res = await shareRoute.loader(withParams(get(`/share/${file}`), { file }));
      expect(res.status, file).toBe(404);
      expectSharePagePolicy(res);
    }
  });
});

describe("/open/badges/{id}.png", () => {
  it("rejects bad and unknown ids with a 404 and never reads a path", async () => {
    for (const file of ["../site.db", "..%2fsite.db.png", "b5692.jpg", "b5692.png.png", "-b5692.png", `${"a".repeat(41)}.png`, "q1234.png", ".png"]) {
      const res = await imageRoute.loader(withParams(get(`/open/badges/${encodeURIComponent(file)}`), { file }));
      expect(res.status, file).toBe(404);
    }
  });

  it("serves a cached 1080x1080 PNG with an ETag, 304 on a match, and a download name", async () => {
    const res = await imageRoute.loader(withParams(get("/open/badges/B5692.png?download=1"), { file: "B5692.png" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(res.headers.get("content-disposition")).toContain(`attachment; filename="Team_Lead_Founders_b5692.png"`);
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1080, 1080]);
    expect((await storedNames("team-badges")).filter((n) => n.startsWith("b5692-"))).toEqual([`b5692-${etag.slice(1, -1)}.png`]);

    const again = await imageRoute.loader(withParams(get("/open/badges/b5692.png", { "if-none-match": etag }), { file: "b5692.png" }));
    expect(again.status).toBe(304);

    const small = await imageRoute.loader(withParams(get("/open/badges/b5692.png?w=256"), { file: "b5692.png" }));
    const smallMeta = await sharp(Buffer.from(await small.arrayBuffer())).metadata();
    expect([smallMeta.width, smallMeta.height]).toEqual([256, 256]);
    expect(small.headers.get("content-disposition")).toBeNull();

    // A staff edit changes the picture, the ETag and the cached file.
    await db.updateTable("team_badges").set({ owner_name: "Brian K. Kiprotich" }).where("id", "=", "b5692").execute();
    const edited = await imageRoute.loader(withParams(get("/open/badges/b5692.png"), { file: "b5692.png" }));
    expect(edited.headers.get("etag")).not.toBe(etag);
    await edited.arrayBuffer();
    const files = (await storedNames("team-badges")).filter((n) => n.startsWith("b5692-"));
    expect(files).toEqual([`b5692-${edited.headers.get("etag")!.slice(1, -1)}.png`]);
  });
});
