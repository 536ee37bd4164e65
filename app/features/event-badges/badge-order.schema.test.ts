import { describe, expect, it } from "vitest";
import { BadgeOrderSchema, ListQuerySchema, OrderIdSchema } from "./badge-order.schema";

const CODE_FORMAT =
  "Enter the M-Pesa confirmation code (10 letters and numbers), or paste the whole confirmation SMS.";

const valid = {
  tierKey: "t3",
  name: "Jane Wanjiru",
  email: "jane@example.org",
  paymentReference: "SKL4Q2ZB7X",
};

/** The messages the schema gives for one field, in order. */
function errorsFor(input: Record<string, unknown>, field: string): string[] {
  const result = BadgeOrderSchema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.filter((i) => i.path[0] === field).map((i) => i.message);
}

const parse = (input: Record<string, unknown>) => BadgeOrderSchema.parse(input);

describe("BadgeOrderSchema", () => {
  it("accepts a minimal order and fills the optional fields", () => {
    expect(parse(valid)).toEqual({
      tierKey: "t3",
      name: "Jane Wanjiru",
      email: "jane@example.org",
      phone: "",
      paymentReference: "SKL4Q2ZB7X",
      payWith: "code",
      hardCopy: false,
      notes: "",
      // Nobody is on the supporter wall without saying so.
      showOnWall: false,
      wallName: "",
      wallPortrait: false,
    });
  });

  it("trims the name, email, phone and notes; the email is lower-cased", () => {
    const out = parse({
      ...valid,
      name: "  Jane Wanjiru ",
      email: "  Jane@Example.ORG ",
      phone: " +254 712 345 678 ",
      notes: "  Seat near the front please. ",
    });
    expect(out).toMatchObject({
      name: "Jane Wanjiru",
      email: "jane@example.org",
      phone: "+254 712 345 678",
      notes: "Seat near the front please.",
    });
  });

  it.each([[""], ["   "], ["\t\n"]])("name %j: 'Please enter your full name.'", (name) => {
    expect(errorsFor({ ...valid, name }, "name")).toEqual(["Please enter your full name."]);
  });

  it("a missing or non-text name gets the same message", () => {
    const { name: _, ...rest } = valid;
    expect(errorsFor(rest, "name")).toEqual(["Please enter your full name."]);
    expect(errorsFor({ ...valid, name: 42 }, "name")).toEqual(["Please enter your full name."]);
  });

  it.each([["nope"], ["a@b"], ["@example.org"], ["jane@"], ["jane @example.org"], [""], ["   "]])(
    "email %j: 'Please provide a valid email address.'",
    (email) => {
      expect(errorsFor({ ...valid, email }, "email")).toEqual(["Please provide a valid email address."]);
    },
  );

  it("a missing email gets the same message", () => {
    const { email: _, ...rest } = valid;
    expect(errorsFor(rest, "email")).toEqual(["Please provide a valid email address."]);
  });

  // The first message is the one the form and the API show.
  it.each([[""], ["   "]])("payment code %j: 'Payment confirmation code is required.'", (paymentReference) => {
    expect(errorsFor({ ...valid, paymentReference }, "paymentReference")[0]).toBe(
      "Payment confirmation code is required.",
    );
  });

  it("a missing payment code: 'Payment confirmation code is required.'", () => {
    const { paymentReference: _, ...rest } = valid;
    expect(errorsFor(rest, "paymentReference")).toEqual(["Payment confirmation code is required."]);
  });

  it.each([["AB12"], ["SKL4Q2ZB7!"], ["I paid yesterday evening at the stall"], ["0712345678 paid yesterday"]])(
    "payment code %j: the format message",
    (paymentReference) => {
      expect(errorsFor({ ...valid, paymentReference }, "paymentReference")).toEqual([CODE_FORMAT]);
    },
  );

  // The format message promises "10 letters and numbers, or the whole SMS": a few typed words
  // are neither, yet the space-stripping fallback turns them into a 6-20 character "code".
  it.each([["paid cash"], ["mpesa sent"], ["0712345678 paid"]])("free text %j is not a payment code", (paymentReference) => {
    expect(errorsFor({ ...valid, paymentReference }, "paymentReference")).toEqual([CODE_FORMAT]);
  });

  it("the code is trimmed and upper-cased", () => {
    expect(parse({ ...valid, paymentReference: "  skl4q2zb7x  " }).paymentReference).toBe("SKL4Q2ZB7X");
    expect(parse({ ...valid, paymentReference: "skl4 q2zb-7x" }).paymentReference).toBe("SKL4Q2ZB7X");
  });

  it("the code is taken out of a pasted M-Pesa SMS", () => {
    const sms =
      "SKL4Q2ZB7X Confirmed. Ksh1,300.00 sent to STREET LIGHT OUTREACH for account VESPERS on 21/11/25 at 7:02 PM. New M-PESA balance is Ksh2,000.00. Transaction cost, Ksh0.00.";
    expect(parse({ ...valid, paymentReference: sms }).paymentReference).toBe("SKL4Q2ZB7X");
    expect(parse({ ...valid, paymentReference: sms.toLowerCase() }).paymentReference).toBe("SKL4Q2ZB7X");
  });

  it.each([["t9"], ["T1"], [""], ["friends"], [1]])("tier %j: 'Tier configuration missing.'", (tierKey) => {
    expect(errorsFor({ ...valid, tierKey }, "tierKey")).toEqual(["Tier configuration missing."]);
  });

  it("a missing tier: 'Tier configuration missing.'", () => {
    const { tierKey: _, ...rest } = valid;
    expect(errorsFor(rest, "tierKey")).toEqual(["Tier configuration missing."]);
  });

  it.each(["t1", "t2", "t3", "t4", "t5"])("tier %s is accepted", (tierKey) => {
    expect(parse({ ...valid, tierKey }).tierKey).toBe(tierKey);
  });

  it.each([
    [true, true],
    ["on", true],
    [false, false],
    ["", false],
    [undefined, false],
    ["off", false],
  ])("hardCopy %j is %j", (hardCopy, expected) => {
    expect(parse({ ...valid, hardCopy }).hardCopy).toBe(expected);
  });

  it("tierName, amount and shareUrl sent by a client are dropped", () => {
    const out = parse({
      ...valid,
      tierKey: "t1",
      tierName: "Champion",
      amount: 1,
      shareUrl: "https://evil.example/phish",
    });
    expect(out).not.toHaveProperty("tierName");
    expect(out).not.toHaveProperty("amount");
    expect(out).not.toHaveProperty("shareUrl");
    expect(out.tierKey).toBe("t1");
  });

  it("phone and notes are optional but bounded", () => {
    expect(errorsFor({ ...valid, phone: "call me maybe" }, "phone")).toHaveLength(1);
    expect(errorsFor({ ...valid, phone: "1".repeat(33) }, "phone")).toHaveLength(1);
    expect(errorsFor({ ...valid, notes: "x".repeat(1001) }, "notes")).toHaveLength(1);
    expect(parse({ ...valid, notes: "x".repeat(1000) }).notes).toHaveLength(1000);
  });

  it("reports every field's problem at once", () => {
    const result = BadgeOrderSchema.safeParse({ tierKey: "t1", name: " ", email: "x", paymentReference: "" });
    expect(result.success).toBe(false);
    expect(result.error!.issues.slice(0, 2).map((i) => [i.path.join("."), i.message])).toEqual([
      ["name", "Please enter your full name."],
      ["email", "Please provide a valid email address."],
    ]);
    expect(result.error!.issues.find((i) => i.path[0] === "paymentReference")?.message).toBe(
      "Payment confirmation code is required.",
    );
  });
});

describe("OrderIdSchema and ListQuerySchema", () => {
  it("order ids are BO- and six capitals or digits", () => {
    expect(OrderIdSchema.parse(" BO-7K2M9Q ")).toBe("BO-7K2M9Q");
    for (const bad of ["bo-7k2m9q", "BO-7K2M9", "BO-7K2M9QX", "../etc", "BO-7K2M9Q/../x"]) {
      expect(OrderIdSchema.safeParse(bad).success).toBe(false);
    }
  });

  it("status is one of pending, approved, rejected, or absent", () => {
    for (const status of ["pending", "approved", "rejected", undefined]) {
      expect(ListQuerySchema.safeParse({ status }).success).toBe(true);
    }
    expect(ListQuerySchema.safeParse({ status: "all" }).success).toBe(false);
    expect(ListQuerySchema.safeParse({ q: "x".repeat(101) }).success).toBe(false);
  });
});

describe("the payment code through the form parser", () => {
  it.each(["   ", "--", " - "])("a code of only %j asks for the code", async (code) => {
    const { parseWithZod } = await import("@conform-to/zod/v4");
    const form = new FormData();
    form.set("tierKey", "t1");
    form.set("name", "Amani");
    form.set("email", "amani@example.com");
    form.set("paymentReference", code);
    const submission = parseWithZod(form, { schema: BadgeOrderSchema });
    if (submission.status === "success") throw new Error("a blank code was accepted");
    expect(submission.error?.paymentReference).toEqual(["Payment confirmation code is required."]);
  });
});
