import { describe, expect, it } from "vitest";
import { isShareUrl, looksLikeSitePortrait, SHARE_URL_MESSAGE } from "./preview";
import { PreviewImageSchema } from "./preview.schema";

const shareError = (share: string) =>
  PreviewImageSchema.safeParse({ kind: "poster", tier: "t1", share }).error?.issues.find((i) => i.path[0] === "share")?.message;

describe("isShareUrl", () => {
  it.each(["http://localhost:3000/event?utm_source=share", "https://streetlight.example/event", "http://exa mple.org/", "ftp://x.org/", "/event", `https://x.org/${"a".repeat(490)}`])(
    "agrees with the image route's schema on %j",
    (share) => {
      expect(isShareUrl(share) ? undefined : SHARE_URL_MESSAGE).toBe(shareError(share));
    },
  );

  it("asks for an address where the schema would use the tier's default", () => {
    expect(isShareUrl("")).toBe(false);
    expect(shareError("")).toBeUndefined();
  });
});

describe("looksLikeSitePortrait", () => {
  it.each(["/brand/portrait.jpg", "/images/a.PNG", "/x/y.webp?v=2", "/p.jpeg#top"])("%j looks like one", (v) => {
    expect(looksLikeSitePortrait(v)).toBe(true);
  });
  it.each(["brand/portrait.jpg", "//evil.example/a.png", "/\\a.png", "https://x.org/a.png", "/brand/portrait.svg", "/brand/"])(
    "%j does not",
    (v) => expect(looksLikeSitePortrait(v)).toBe(false),
  );
});
