import { beforeEach, describe, expect, it } from "vitest";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import type { Db } from "~/lib/db/db.server";
import * as activityApi from "~/routes/api/activity";
import * as adminPage from "~/routes/admin/index";
import * as badgeOrdersPage from "~/routes/admin/badge-orders";
import * as engagementPage from "~/routes/admin/engagement";
import * as merchOrdersPage from "~/routes/admin/merch-orders";
import * as badgesPage from "~/routes/badges/badges";
import * as blogEditor from "~/routes/blog/admin";
import * as merchEditor from "~/routes/merch/admin";
import { ORIGIN, args } from "../support/http";
import { freshApp } from "../support/reset";

// Every staff form is signed in by the session cookie alone, so each must come from a page of
// this site: another site's page (a foreign Origin, Sec-Fetch-Site: cross-site) and a request
// that does not say where it came from (no Origin, no Sec-Fetch-Site) are both refused.
const STAFF = "10.0.0.42";
let db: Db;
let cookie: string;

beforeEach(async () => {
  db = await freshApp({ SMTP_URL: undefined });
  cookie = (await createAdminSessionCookie(db, new Request(`${ORIGIN}/admin`), STAFF)).split(";")[0]!;
});

type Action = (args: never) => Promise<unknown>;
const FORMS: Array<{ name: string; path: string; action: Action; fields: Record<string, string> }> = [
  { name: "sign out", path: "/admin", action: adminPage.action, fields: { intent: "sign-out" } },
  { name: "sign out everywhere", path: "/admin", action: adminPage.action, fields: { intent: "sign-out-everywhere" } },
  { name: "sign in", path: "/admin", action: adminPage.action, fields: { intent: "sign-in", returnTo: "/admin", key: "test-admin-key-0123456789" } },
  { name: "badge order approve", path: "/admin/badge-orders", action: badgeOrdersPage.action, fields: { intent: "approve", id: "BO-ABC123" } },
  { name: "merch order status", path: "/admin/merch-orders", action: merchOrdersPage.action, fields: { intent: "status", id: "MO-ABCDEF", status: "approved" } },
  { name: "merchandise save", path: "/merchandise/admin", action: merchEditor.action, fields: { intent: "save" } },
  { name: "blog save", path: "/blogs/admin", action: blogEditor.action, fields: { intent: "save" } },
  { name: "blog notify", path: "/blogs/admin", action: blogEditor.action, fields: { intent: "notify", slug: "friday-night" } },
  { name: "poll create", path: "/admin/engagement", action: engagementPage.action, fields: { intent: "ensure-poll", id: "csrf-poll" } },
  { name: "team badge share file", path: "/badges?id=b5692", action: badgesPage.action, fields: { intent: "gen-share", id: "b5692" } },
];

const ORIGINS: Array<[string, Record<string, string>]> = [
  ["a foreign Origin from another site's page", { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }],
  ["a foreign Origin alone", { Origin: "https://evil.example" }],
  ["Sec-Fetch-Site: cross-site alone", { "Sec-Fetch-Site": "cross-site" }],
  ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "Sec-Fetch-Site": "same-site", Origin: "https://shop.site.test" }],
  ["Origin: null (a sandboxed page or a redirect)", { Origin: "null" }],
  ["no Origin and no Sec-Fetch-Site", {}],
];

function post(path: string, fields: Record<string, string>, headers: Record<string, string>) {
  return new Request(ORIGIN + path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", Cookie: cookie, ...headers },
  });
}

/** The status of a refusal: a thrown data() or Response. */
async function refusal(work: Promise<unknown>): Promise<number> {
  try {
    const value = await work;
    throw new Error(`expected a refusal, got ${JSON.stringify(value)}`);
  } catch (e) {
    if (e instanceof Response) return e.status;
    const init = (e as { init?: { status?: number } }).init;
    if (init?.status) return init.status;
    throw e;
  }
}

/** Whether the staff session still opens the JSON API (a sign-out would have ended it). */
const sessionWorks = async () =>
  (await activityApi.loader(args(new Request(`${ORIGIN}/api/activity.php`, { headers: { Cookie: cookie } })))).status === 200;

describe("staff forms refuse requests that are not from this site's pages", () => {
  for (const form of FORMS) {
    it.each(ORIGINS)(`${form.name}: %s is a 403 and changes nothing`, async (_label, headers) => {
      const status = await refusal(form.action(args(post(form.path, form.fields, headers), STAFF) as never));
      expect(status).toBe(403);
      expect(await sessionWorks()).toBe(true);
      expect(await db.selectFrom("activity").select("type").execute()).toEqual([]);
      expect(await db.selectFrom("polls").select("id").execute()).toEqual([]);
    });
  }

  it("the same forms from this site's page (Origin, or Sec-Fetch-Site: same-origin) are not refused", async () => {
    for (const headers of [{ Origin: ORIGIN }, { "Sec-Fetch-Site": "same-origin" }] as Record<string, string>[]) {
      const answer = await engagementPage.action(args(post("/admin/engagement", { intent: "ensure-poll", id: "ok-poll" }, headers), STAFF) as never);
      expect(answer).toMatchObject({ init: { status: 200 } });
    }
    expect(await db.selectFrom("polls").select("id").execute()).toEqual([{ id: "ok-poll" }]);
  });
});
