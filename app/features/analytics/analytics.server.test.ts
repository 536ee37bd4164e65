import { describe, expect, it } from "vitest";
import { NAME_PATTERN, TrackSchema } from "./analytics.schema";
import { isBotAgent, readClientId, stripQuery, toRow } from "./analytics.server";

describe("stripQuery", () => {
  it.each([
    ["/blogs/hello?utm_source=x&email=a@b.co", "/blogs/hello"],
    ["/about#team", "/about"],
    ["/join", "/join"],
    ["https://example.org/page?q=1#x", "https://example.org/page"],
    ["HTTP://Example.org/a/b?c", "http://example.org/a/b"],
    ["", ""],
    [undefined, ""],
    [null, ""],
  ])("%j -> %j", (input, expected) => {
    expect(stripQuery(input)).toBe(expected);
  });

  it("cuts to the maximum length", () => {
    expect(stripQuery("/" + "a".repeat(400))).toHaveLength(300);
    expect(stripQuery("/abcdef", 4)).toBe("/abc");
  });

  it("drops an absolute URL it cannot parse", () => {
    expect(stripQuery("http://[bad")).toBe("");
  });
});

describe("toRow", () => {
  const ts = "2026-01-02T03:04:05.000Z";

  it("keeps a page view's name and its path without the query", () => {
    expect(
      toRow({ type: "page.view", page: "event.badges", path: "/badges?id=b1", ref: "https://x.org/a?b=c" }, "cid12345", ts),
    ).toEqual({
      ts,
      type: "page.view",
      name: "event.badges",
      path: "/badges",
      ref: "https://x.org/a",
      src: "",
      meta: "{}",
      cid: "cid12345",
    });
  });

  it("keeps an event's name exactly and its meta as JSON", () => {
    const row = toRow({ type: "event", name: "merch.store view", meta: { tier: "t3", n: 2 }, path: "/merchandise?x=1" }, "c", ts);
    expect(row).toMatchObject({ type: "event", name: "merch.store view", path: "/merchandise", meta: '{"tier":"t3","n":2}' });
  });

  it("stores a blog view under its slug with its source", () => {
    expect(toRow({ type: "blog.view", slug: "street-vespers", src: "share" }, "c", ts)).toMatchObject({
      type: "blog.view",
      name: "street-vespers",
      src: "share",
      path: "",
    });
  });
});

describe("NAME_PATTERN", () => {
  it.each([
    "page.view",
    "footer.subscribe.submit",
    "badge.share.linkedin",
    "blog.open_linkedin",
    "merch.store view",
    "merch.admin.orders_loaded",
    "event.badges",
    "blogs:my-post",
    "/vespers",
    "a",
  ])("allows %j", (name) => {
    expect(NAME_PATTERN.test(name)).toBe(true);
  });

  it.each(["<script>", "", " leading", "trailing ", "two  spaces", "tab\tname", "semi;colon", "quote'", "new\nline", "ü"])(
    "rejects %j",
    (name) => {
      expect(NAME_PATTERN.test(name)).toBe(false);
    },
  );
});

describe("TrackSchema", () => {
  it("refuses an unknown type and a bad client id", () => {
    expect(TrackSchema.safeParse({ type: "click", name: "x" }).success).toBe(false);
    expect(TrackSchema.safeParse({ type: "page.view", page: "home", cid: "short" }).success).toBe(false);
  });

  it("defaults a blog view's source to site", () => {
    const r = TrackSchema.parse({ type: "blog.view", slug: "a-post" });
    expect(r).toMatchObject({ src: "site" });
  });
});

describe("client ids and bots", () => {
  it("reads the X-Client-Id header first, then the cid cookie, ignoring bad values", () => {
    const h = (headers: Record<string, string>) => new Request("http://site.test/", { headers });
    expect(readClientId(h({ "x-client-id": "abcdef0123456789", cookie: "cid=zzzzzzzzzz" }).headers)).toBe("abcdef0123456789");
    expect(readClientId(h({ "x-client-id": "bad id!", cookie: "a=1; cid=zzzzzzzzzz" }).headers)).toBe("zzzzzzzzzz");
    expect(readClientId(h({}).headers)).toBeUndefined();
  });

  it("knows a crawler from a browser", () => {
    expect(isBotAgent("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).toBe(true);
    expect(isBotAgent("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36")).toBe(false);
    expect(isBotAgent(null)).toBe(false);
  });
});
