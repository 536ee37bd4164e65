import crypto from "node:crypto";
import { expect, test } from "../support/e2e-fixtures";
import { ADMIN_KEY } from "../support/e2e-env";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

// The page cache, attacked as a crawler would: thousands of addresses with random query strings
// and random cookies (staff cookies spelled oddly among them), sent to a site of our own. The
// pages visitors read must still come from memory afterwards, with nothing of staff in them,
// and a reaction must not empty the blog's list.

let site: SiteProcess;
const PHONE = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36";

test.describe.configure({ mode: "serial", timeout: 180_000 });
test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "no browser: runs once");

test.beforeAll(async () => {
  site = await startSiteProcess("cache-flood");
});
test.afterAll(async () => {
  await site?.stop();
});

const origin = () => `http://127.0.0.1:${site.port}`;

/**
 * A GET as an anonymous phone (or with the given headers): status, how it was served, body.
 * Told 'busy, come back' (503 with Retry-After, while the server sheds work) it comes back, as
 * a browser's reload would.
 */
async function get(path: string, headers: Record<string, string> = {}) {
  for (let tries = 1; ; tries++) {
    const res = await fetch(origin() + path, { headers: { "User-Agent": PHONE, ...headers }, redirect: "manual" });
    const answer = { status: res.status, cache: res.headers.get("x-page-cache"), html: await res.text() };
    const retryAfter = Number(res.headers.get("retry-after"));
    if (res.status !== 503 || !(retryAfter >= 1) || tries === 10) return answer;
    await new Promise((r) => setTimeout(r, retryAfter * 1000));
  }
}

/** A staff session cookie's value, through the sign-in form as a browser gets it. */
async function staffSession() {
  const res = await fetch(`${origin()}/admin`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", Origin: origin() },
    body: new URLSearchParams({ intent: "sign-in", key: ADMIN_KEY, returnTo: "/admin" }),
    redirect: "manual",
  });
  await res.arrayBuffer();
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
  expect(cookie).toMatch(/^__admin=./);
  return cookie.slice("__admin=".length);
}

const STAFF_MARKUP = /class="staff-share"|\\?"isAdmin\\?",true/;
const likes = (html: string) => Number(/Like<\/span><span class="reaction-count">(\d+)</.exec(html)?.[1]);

test("2,000 requests with random query strings and cookies leave /, /blogs and /badges in the cache, with nothing of staff", async () => {
  const staff = await staffSession();
  // The staff view exists (so its absence below means something).
  expect((await get("/badges?id=b5692", { Cookie: `__admin=${staff}` })).html).toMatch(STAFF_MARKUP);

  const watched = ["/", "/blogs", "/badges", "/badges?id=b5692"];
  for (const path of watched) {
    await get(path);
    expect((await get(path)).cache, `${path} is kept`).toBe("hit");
  }

  let seed = 20261126;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const word = () => crypto.randomBytes(1 + rand(12)).toString("base64url");
  const paths = ["/", "/about", "/privacy", "/vespers", "/ministry", "/join", "/blogs", "/blogs/campus-mission-week", "/badges", "/badges?id=b5692", "/event", "/merchandise", "/ABOUT/", "/bl%6Fgs"];
  const queries = [() => `u=${word()}`, () => `q=${word()}`, () => `page=${rand(500)}`, () => `tier=${word()}`, () => `item=${word()}`, () => `utm_source=${word()}&fbclid=${word()}`, () => `category=${word()}`];
  const cookies = [
    () => `${word()}=${word()}`,
    () => `cid=${crypto.randomBytes(16).toString("hex")}`,
    () => `bag=${word()}`,
    () => `__admin=${word()}`,
    () => `__admin =${staff}`,
    () => `__admin\t=${staff}`,
    () => ` __admin = ${staff}`,
    () => `lite=${rand(2)}`,
  ];
  const statuses = new Map<number | string, number>();
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < 2_000 && Date.now() - started < 120_000) {
      next += 1;
      const base = paths[rand(paths.length)]!;
      const query = Array.from({ length: 1 + rand(3) }, () => queries[rand(queries.length)]!()).join("&");
      const cookie = Array.from({ length: rand(4) }, () => cookies[rand(cookies.length)]!()).join("; ");
      const res = await fetch(`${origin()}${base}${base.includes("?") ? "&" : "?"}${query}`, {
        headers: { "User-Agent": PHONE, ...(cookie ? { Cookie: cookie } : {}), ...(rand(5) === 0 ? { "Save-Data": "on" } : {}) },
        redirect: "manual",
      });
      await res.arrayBuffer();
      // While the server sheds work (a crawler at full speed is work) a render may be put off: 503,
      // with when to come back. Nothing else of 500 or more.
      const status = res.status === 503 && Number(res.headers.get("retry-after")) >= 1 ? "503, come back" : res.status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  expect(next).toBe(2_000);
  expect([...statuses.keys()].filter((s) => typeof s === "number" && s >= 500), JSON.stringify([...statuses])).toEqual([]);
  console.log(`[cache-flood] answers: ${JSON.stringify([...statuses])}`);
  // Served from memory again once the burst is over (no lingering 'busy').
  await new Promise((r) => setTimeout(r, 1_500));

  // An anonymous visitor afterwards: every one of those pages straight from memory, none staff's.
  for (const path of watched) {
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(page.cache, `${path} still comes from the cache`).toBe("hit");
    expect(page.html, `${path} carries no staff markup`).not.toMatch(STAFF_MARKUP);
    // Nobody's query string made it into the cached bytes (the footer's Lite switch included).
    expect(page.html).not.toMatch(/utm_source|fbclid|[?&;]u=|page%3D/);
  }
  // And a visitor who arrives by a link with tracking parameters gets the same cached page.
  const shared = await get("/blogs?utm_source=whatsapp&fbclid=abc");
  expect(shared.cache).toBe("hit");
  expect(shared.html).toBe((await get("/blogs")).html);
});

test("a staff cookie sent as `__admin =…` is never stored: the next anonymous visitor gets no staff button", async () => {
  const staff = await staffSession();
  for (const cookie of [`__admin =${staff}`, `lite=0; __admin\t=${staff}`, ` __admin = ${staff}`]) {
    const id = "b5693";
    const theirs = await get(`/badges?id=${id}`, { Cookie: cookie });
    expect(theirs.status).toBe(200);
    expect(theirs.cache, "a staff render is not answered from nor kept in the cache").toBeNull();
    for (let i = 0; i < 2; i++) {
      const anonymous = await get(`/badges?id=${id}`);
      expect(anonymous.html, `after ${JSON.stringify(cookie.slice(0, 10))}`).not.toMatch(STAFF_MARKUP);
    }
  }
});

test("an anonymous reaction updates its post's count at once and leaves /blogs and other posts in the cache", async () => {
  const slug = "why-six-hours-a-week";
  const other = "building-the-badge-kit";
  for (const path of ["/blogs", `/blogs/${slug}`, `/blogs/${other}`]) {
    await get(path);
    expect((await get(path)).cache, path).toBe("hit");
  }
  const before = likes((await get(`/blogs/${slug}`)).html);
  expect(Number.isInteger(before)).toBe(true);

  const cid = crypto.randomBytes(16).toString("hex");
  const liked = await fetch(`${origin()}/api/reactions.php`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Client-Id": cid },
    body: JSON.stringify({ slug, reaction: "like" }),
  });
  expect(liked.status).toBe(200);

  expect((await get("/blogs")).cache, "the list is not emptied by a reaction").toBe("hit");
  expect((await get(`/blogs/${other}`)).cache, "nor another post").toBe("hit");
  const after = await get(`/blogs/${slug}`);
  expect(likes(after.html), "the post shows the new count at once").toBe(before + 1);
  const again = await get(`/blogs/${slug}`);
  expect(again.cache).toBe("hit");
  expect(likes(again.html)).toBe(before + 1);
});
