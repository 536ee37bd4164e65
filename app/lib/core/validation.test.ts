import { describe, expect, it } from "vitest";
import { EMAIL_MESSAGE, EMAIL_PATTERN, NAME_MESSAGE, NOTES_TOO_LONG_MESSAGE } from "./rules";
import { EmailField, emailField, fullNameField, NotesField, SourceField } from "./validation";

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

describe("emailField", () => {
  it("names an over-long address in the form's words", () => {
    const long = `${"a".repeat(250)}@b.co`;
    expect(EmailField.safeParse(long).error?.issues[0]?.message).toBe("That email address is too long.");
    expect(emailField({ tooLong: EMAIL_MESSAGE }).safeParse(long).error?.issues[0]?.message).toBe(EMAIL_MESSAGE);
  });
});

describe("fullNameField", () => {
  it.each([undefined, "", "   ", 42])("asks for a name when given %j", (name) => {
    expect(fullNameField().safeParse(name).error?.issues[0]?.message).toBe(NAME_MESSAGE);
  });

  it("trims, and keeps to its length in the spec's words", () => {
    expect(fullNameField().parse("  Wanjiku Kamau ")).toBe("Wanjiku Kamau");
    expect(fullNameField().safeParse("a".repeat(81)).error?.issues[0]?.message).toBe("Please keep the name under 80 characters.");
    expect(fullNameField(120).safeParse("a".repeat(120)).success).toBe(true);
    expect(fullNameField(120).safeParse("a".repeat(121)).error?.issues[0]?.message).toBe("Please keep the name under 120 characters.");
  });
});

describe("NotesField", () => {
  it("is optional, trimmed and at most 1,000 characters", () => {
    expect(NotesField.parse(undefined)).toBe("");
    expect(NotesField.parse(" gate B ")).toBe("gate B");
    expect(NotesField.safeParse("a".repeat(1001)).error?.issues[0]?.message).toBe(NOTES_TOO_LONG_MESSAGE);
  });
});
