import { afterEach, describe, expect, it, vi } from "vitest";
import { copyText, facebookShareUrl, openShareSheet, shareOrCopy, twitterShareUrl, whatsAppShareUrl } from "./share";

/** A stand-in for the few DOM pieces the copy fallback uses. */
function fakeDocument(copies: boolean | "throws") {
  const appended: Array<{ parent: string; value: string }> = [];
  const body = { name: "body", appendChild: (a: { value: string }) => appended.push({ parent: "body", value: a.value }) };
  const doc = {
    body,
    createElement: () => {
      const area = { value: "", style: {}, setAttribute() {}, select() {}, removed: false, remove() { area.removed = true; } };
      return area;
    },
    execCommand: () => {
      if (copies === "throws") throw new Error("not allowed");
      return copies;
    },
  };
  return { doc, appended };
}

afterEach(() => vi.unstubAllGlobals());

describe("copyText", () => {
  it("uses the Clipboard API when there is one", async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { clipboard: { writeText } });
    expect(await copyText("https://site.test/a")).toBe("clipboard");
    expect(writeText).toHaveBeenCalledWith("https://site.test/a");
  });

  it("falls back to select-and-copy, in the host it is given", async () => {
    vi.stubGlobal("navigator", {});
    const { doc, appended } = fakeDocument(true);
    vi.stubGlobal("document", doc);
    expect(await copyText("x")).toBe("fallback");
    const host = { appendChild: (a: { value: string }) => appended.push({ parent: "dialog", value: a.value }) };
    expect(await copyText("y", host as unknown as Element)).toBe("fallback");
    expect(appended).toEqual([
      { parent: "body", value: "x" },
      { parent: "dialog", value: "y" },
    ]);
  });

  it("says so when neither way copies", async () => {
    vi.stubGlobal("navigator", { clipboard: { writeText: async () => Promise.reject(new Error("denied")) } });
    vi.stubGlobal("document", fakeDocument(false).doc);
    expect(await copyText("x")).toBe(false);
    vi.stubGlobal("document", fakeDocument("throws").doc);
    expect(await copyText("x")).toBe(false);
  });
});

describe("the share sheet", () => {
  const data = { title: "Post", text: "Post", url: "https://site.test/blogs/post" };

  it("shares where there is one", async () => {
    const share = vi.fn(async () => {});
    vi.stubGlobal("navigator", { share });
    expect(await openShareSheet(data)).toBe("shared");
    expect(share).toHaveBeenCalledWith(data);
  });

  it("is quiet when cancelled, and copies when missing or failing", async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { share: async () => Promise.reject(new DOMException("x", "AbortError")), clipboard: { writeText } });
    expect(await shareOrCopy(data)).toBe("cancelled");
    expect(writeText).not.toHaveBeenCalled();

    vi.stubGlobal("navigator", { share: async () => Promise.reject(new DOMException("x", "NotAllowedError")), clipboard: { writeText } });
    expect(await openShareSheet(data)).toBe("unavailable");
    expect(await shareOrCopy(data)).toBe("clipboard");

    vi.stubGlobal("navigator", { clipboard: { writeText } });
    expect(await shareOrCopy(data)).toBe("clipboard");
    expect(writeText).toHaveBeenCalledWith(data.url);
  });
});

describe("share links", () => {
  it("carry the text and the address, encoded", () => {
    const url = "https://site.test/blogs/a b?x=1&y=2";
    expect(whatsAppShareUrl(`Read this ${url}`)).toBe("https://wa.me/?text=Read%20this%20https%3A%2F%2Fsite.test%2Fblogs%2Fa%20b%3Fx%3D1%26y%3D2");
    expect(twitterShareUrl(url, "A & B")).toBe(
      "https://twitter.com/intent/tweet?url=https%3A%2F%2Fsite.test%2Fblogs%2Fa%20b%3Fx%3D1%26y%3D2&text=A%20%26%20B",
    );
    expect(facebookShareUrl(url)).toBe("https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fsite.test%2Fblogs%2Fa%20b%3Fx%3D1%26y%3D2");
  });
});
