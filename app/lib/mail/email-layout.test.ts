import { describe, expect, it } from "vitest";
import { renderEmail } from "./email-layout";

const mail = renderEmail({
  subject: "S",
  heading: "Hello <you>",
  paragraphs: ["First & second."],
  cta: { label: "Go", url: "https://example.org/?a=1&b=2" },
});

describe("the email layout", () => {
  it("is fluid: no fixed-width table wider than a phone, at most 560 px wide", () => {
    expect(mail.html).not.toMatch(/width="(?!100%)\d+"/);
    expect(mail.html).not.toMatch(/(?<!max-)width:\s*\d{3,}px/);
    expect(mail.html).toContain("max-width:560px");
    expect(mail.html).toContain('name="viewport"');
  });

  it("escapes the words it is given and keeps a text part", () => {
    expect(mail.html).toContain("Hello &lt;you&gt;");
    expect(mail.html).toContain("https://example.org/?a=1&amp;b=2");
    expect(mail.text).toContain("Go: https://example.org/?a=1&b=2");
  });
});
