import { describe, expect, it } from "vitest";
import { headersOf, originFormTarget, requestUrl, ServerRequest } from "./edge";

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

describe("ServerRequest", () => {
  it("is not aborted while the visitor waits, and is once they leave, read before or after", () => {
    const waiting = new ServerRequest(`${ORIGIN}/blogs`);
    expect(waiting.signal.aborted).toBe(false);
    let heard = 0;
    waiting.signal.addEventListener("abort", () => heard++);
    waiting.abandon();
    expect([waiting.signal.aborted, heard]).toEqual([true, 1]);

    const unread = new ServerRequest(`${ORIGIN}/blogs`);
    unread.abandon();
    expect(unread.signal.aborted).toBe(true);
  });

  it("passes its abort on to the copies React Router makes of it, and to clones", async () => {
    const request = new ServerRequest(`${ORIGIN}/api/x.php?index`, { method: "POST", body: "{}", duplex: "half" } as RequestInit);
    const copy = new Request(`${ORIGIN}/api/x.php`, { method: request.method, body: request.body, headers: request.headers, signal: request.signal, duplex: "half" } as RequestInit);
    const clone = request.clone();
    expect([copy.signal.aborted, clone.signal.aborted]).toEqual([false, false]);
    request.abandon();
    expect([copy.signal.aborted, clone.signal.aborted]).toEqual([true, true]);
  });
});
