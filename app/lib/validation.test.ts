import { describe, expect, it } from "vitest";
import { EMAIL_MESSAGE, EMAIL_PATTERN, EmailField, SourceField } from "./validation";

describe("EmailField", () => {
  it("words the error as the product does", () => {
    expect(EMAIL_MESSAGE).toBe("Please provide a valid email address.");
  });

  it.each(["a@b.c", "jane.doe+news@example.co.ke", "x_y@sub.domain.org"])("accepts %s", (email) => {
    expect(EmailField.safeParse(email).success).toBe(true);
  });

  it.each(["", "plain", "a@b", "@b.c", "a@.c.", "a b@c.d", "a@b c.d", "a@@b.c", 5, null])(
    "rejects %j with the product's message",
    (email) => {
      const r = EmailField.safeParse(email);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toBe("Please provide a valid email address.");
    },
  );

  it("trims and lower-cases before storing", () => {
    expect(EmailField.parse("  Jane@Example.ORG \n")).toBe("jane@example.org");
  });

  it("the pattern is text@text.text", () => {
    expect(EMAIL_PATTERN.test("a@b.c")).toBe(true);
    expect(EMAIL_PATTERN.test("a@bc")).toBe(false);
  });
});

describe("SourceField", () => {
  it.each(["footer:/about", "blogs:index", "home:hero", "join", "blogs:my-first_post.v2", ""])("accepts %j", (s) => {
    expect(SourceField.parse(s)).toBe(s);
  });

  it("trims", () => {
    expect(SourceField.parse("  about ")).toBe("about");
  });

  it.each(["<script>", "a b", "x?y=1", "a".repeat(81)])("rejects %j", (s) => {
    expect(SourceField.safeParse(s).success).toBe(false);
  });
});
