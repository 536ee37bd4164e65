import { describe, expect, it } from "vitest";
import { headersOf, originFormTarget, requestUrl } from "./edge";

const ORIGIN = "https://streetlight.example";

describe("originFormTarget / requestUrl", () => {
  it.each(["/", "/event?tier=t3", "/blogs/a-post", "/api/track.php?x=1&y=%20", "/%E2%9C%93"])("serves %s on PUBLIC_URL's origin", (t) => {
    const url = requestUrl(t, ORIGIN);
    expect(url?.origin).toBe(ORIGIN);
    expect(url!.pathname + url!.search).toBe(t);
  });

  it.each([
    ["empty", ""],
    ["//", "//"],
    ["a protocol-relative host", "//evil.example/x"],
    ["absolute-form", "http://evil.example/"],
    ["asterisk-form", "*"],
    ["authority-form", "evil.example:443"],
    ["a backslash host", "/\\evil.example"],
    ["a bare percent", "/%"],
    ["a bad escape", "/%zz"],
    ["overlong UTF-8", "/%c0%af"],
    ["a control character", "/a\u0001b"],
    ["a space", "/a b"],
    ["an overlong target", `/${"a".repeat(5000)}`],
  ])("refuses %s", (_, t) => {
    expect(originFormTarget(t)).toBeNull();
    expect(requestUrl(t, ORIGIN)).toBeNull();
  });

  it("never takes the host from anywhere but PUBLIC_URL", () => {
    expect(requestUrl("/x", ORIGIN)!.host).toBe("streetlight.example");
  });
});

describe("headersOf", () => {
  it("keeps valid headers and drops ones fetch refuses, without throwing", () => {
    const h = headersOf(["Host", "a b", "X-Ok", "yes", "Bad Name", "v", "X-Nul", "a\u0000b"]);
    expect(h.get("x-ok")).toBe("yes");
    expect(h.get("host")).toBe("a b");
    expect([...h.keys()].sort()).toEqual(["host", "x-ok"]);
  });
});
