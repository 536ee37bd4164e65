import { describe, expect, it } from "vitest";
import { ApplicationSchema, HeroSchema, JoinSchema } from "./applications.schema";
import { JOIN_ROLES } from "./roles";

const valid = { name: "Jane Wanjiru", email: "jane@example.org", role: "DevOps", consent: "yes" };

function firstMessage(result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }, field: string) {
  return result.error?.issues.find((i) => i.path[0] === field)?.message;
}

describe("the join form's rules", () => {
  it("has the nine roles in the spec's order", () => {
    expect(JOIN_ROLES).toEqual([
      "Front-End Dev",
      "Back-End Dev",
      "DevOps",
      "UI/UX & Design",
      "Writer / Content",
      "Evangelism / Bible Studies",
      "Media / Video",
      "Events / Operations",
      "Community & Onboarding",
    ]);
  });

  it.each(JOIN_ROLES.map((r) => [r]))("accepts the role %s", (role) => {
    expect(JoinSchema.safeParse({ ...valid, role }).success).toBe(true);
  });

  it.each(["General Interest", "Admin", "devops", ""])("refuses the role %j", (role) => {
    const r = JoinSchema.safeParse({ ...valid, role });
    expect(r.success).toBe(false);
    expect(firstMessage(r, "role")).toBe("Please choose a role from the list.");
  });

  it("requires a full name, worded as the product does", () => {
    for (const name of [undefined, "", "   "]) {
      const r = JoinSchema.safeParse({ ...valid, name });
      expect(firstMessage(r, "name")).toBe("Please enter your full name.");
    }
  });

  it("requires a valid email, worded as the product does", () => {
    for (const email of [undefined, "", "jane@example", "jane example.org"]) {
      const r = JoinSchema.safeParse({ ...valid, email });
      expect(firstMessage(r, "email")).toBe("Please provide a valid email address.");
    }
  });

  it("trims every field; phone and message are optional; the source defaults to join", () => {
    const r = JoinSchema.parse({ ...valid, name: "  Jane Wanjiru ", email: " JANE@example.org " });
    expect(r).toEqual({
      name: "Jane Wanjiru",
      email: "jane@example.org",
      role: "DevOps",
      phone: "",
      message: "",
      source: "join",
      consent: "yes",
    });
  });

  it("keeps an optional phone and message", () => {
    const r = JoinSchema.parse({ ...valid, phone: " +254 700 000 001 ", message: " Hi! " });
    expect(r.phone).toBe("+254 700 000 001");
    expect(r.message).toBe("Hi!");
  });

  it("refuses a phone with letters", () => {
    expect(JoinSchema.safeParse({ ...valid, phone: "call me" }).success).toBe(false);
  });
});

describe("the JSON and hero schemas", () => {
  it("send.php takes an email alone as General Interest", () => {
    expect(ApplicationSchema.parse({ email: "a@b.co" })).toMatchObject({
      name: "",
      role: "General Interest",
      source: "join",
    });
  });

  it("the hero needs only an email", () => {
    expect(HeroSchema.parse({ email: " A@B.co " })).toEqual({ email: "a@b.co" });
    expect(HeroSchema.safeParse({ email: "nope" }).success).toBe(false);
  });
});
