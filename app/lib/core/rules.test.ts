import { describe, expect, it } from "vitest";
import {
  EMAIL_MESSAGE,
  EMAIL_PATTERN,
  emailError,
  fieldErrors,
  isBlank,
  isEmail,
  isHttpsUrl,
  isHttpUrl,
  isImageAddress,
  NAME_MESSAGE,
  nameError,
  nameTooLongMessage,
  SLUG_INPUT_PATTERN,
  SLUG_PATTERN,
} from "./rules";

describe("the shared words", () => {
  it("are the spec's", () => {
    expect(NAME_MESSAGE).toBe("Please enter your full name.");
    expect(EMAIL_MESSAGE).toBe("Please provide a valid email address.");
    expect(nameTooLongMessage(80)).toBe("Please keep the name under 80 characters.");
  });
});

describe("names and emails", () => {
  it.each(["", "   ", "\t\n"])("%j is blank: the name is asked for", (text) => {
    expect(isBlank(text)).toBe(true);
    expect(nameError(text)).toBe(NAME_MESSAGE);
  });

  it("a typed name passes", () => {
    expect(nameError(" Wanjiku ")).toBeUndefined();
  });

  it.each(["a@b.c", " w@example.org ", "jane.doe+news@example.co.ke"])("%j is an email address", (text) => {
    expect(isEmail(text)).toBe(true);
    expect(emailError(text)).toBeUndefined();
  });

  it.each(["", "plain", "a@b", "@b.c", "a b@c.d", "a@@b.c", "w@x"])("%j is not", (text) => {
    expect(isEmail(text)).toBe(false);
    expect(emailError(text)).toBe(EMAIL_MESSAGE);
  });

  it("the pattern itself does not trim", () => {
    expect(EMAIL_PATTERN.test(" a@b.c")).toBe(false);
  });
});

describe("slugs", () => {
  it.each(["friday-vespers", "a", "street-light-2"])("%j is a slug", (s) => expect(SLUG_PATTERN.test(s)).toBe(true));
  it.each(["Friday", "a--b", "-a", "a-", "a b", ""])("%j is not", (s) => expect(SLUG_PATTERN.test(s)).toBe(false));

  it("the input pattern is the same rule, as the browser anchors it", () => {
    const browser = new RegExp(`^(?:${SLUG_INPUT_PATTERN})$`, "v");
    for (const s of ["friday-vespers", "a-b-c", "A", "a--b", "a-"]) expect(browser.test(s)).toBe(SLUG_PATTERN.test(s));
  });
});

describe("addresses", () => {
  it.each(["/images/merch/hoodie.webp", "/images/blog/a%20b.jpg", "https://cdn.example.org/x.png"])("%j is an image address", (v) => {
    expect(isImageAddress(v)).toBe(true);
  });

  it.each(["", "//evil.example/x.png", "http://plain.example/a.jpg", "javascript:alert(1)", "data:image/png;base64,AA", "images/x.png", "/a b.png"])(
    "%j is not",
    (v) => expect(isImageAddress(v)).toBe(false),
  );

  it("https only for links staff type", () => {
    expect(isHttpsUrl("https://www.linkedin.com/posts/x")).toBe(true);
    expect(isHttpsUrl("http://www.linkedin.com/posts/x")).toBe(false);
    expect(isHttpsUrl("https://a.b/<script>")).toBe(false);
  });

  it("http(s) addresses as the URL parser reads them", () => {
    expect(isHttpUrl("http://localhost:3000/event?x=1")).toBe(true);
    expect(isHttpUrl("https://example.org")).toBe(true);
    expect(isHttpUrl("ftp://example.org")).toBe(false);
    expect(isHttpUrl("http://exa mple.org")).toBe(false);
    expect(isHttpUrl("")).toBe(false);
  });
});

describe("fieldErrors", () => {
  it("keeps only the fields with a message", () => {
    expect(fieldErrors({ name: NAME_MESSAGE, email: undefined, code: null, notes: "" })).toEqual({ name: NAME_MESSAGE });
    expect(fieldErrors({ a: undefined })).toEqual({});
  });
});
