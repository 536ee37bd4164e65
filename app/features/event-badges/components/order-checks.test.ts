import { describe, expect, it } from "vitest";
import { BadgeOrderSchema } from "../badge-order.schema";
import { PORTRAIT_TYPE_MESSAGE } from "../portrait";
import { checkOrder, checkPortraitFile } from "./order-checks";

/** The schema's first message per field, for the fields the browser checks. */
function serverErrors(fields: { name: string; email: string; paymentReference: string }) {
  const r = BadgeOrderSchema.safeParse({ tierKey: "t3", ...fields });
  const out: Record<string, string> = {};
  for (const issue of r.success ? [] : r.error.issues) {
    const key = String(issue.path[0]);
    if (["name", "email", "paymentReference"].includes(key) && !out[key]) out[key] = issue.message;
  }
  return out;
}

describe("checkOrder", () => {
  const cases = [
    { name: "Wanjiku Kamau", email: "w@example.org", paymentReference: "SKL4Q2ZB7X" },
    { name: "   ", email: "w@example.org", paymentReference: "SKL4Q2ZB7X" },
    { name: "A", email: "not-an-email", paymentReference: "SKL4Q2ZB7X" },
    { name: "A", email: " w@example.org ", paymentReference: "  " },
    { name: "A", email: "w@x", paymentReference: "abc" },
    {
      name: "A",
      email: "w@example.org",
      paymentReference: "skl4q2zb7x Confirmed. Ksh1,300.00 sent to STREET LIGHT for account VESPERS",
    },
    { name: "", email: "", paymentReference: "" },
  ];

  it.each(cases)("gives the server's words for %j", (fields) => {
    expect(checkOrder(fields)).toEqual(serverErrors(fields));
  });

  it("names each missing field with the spec's message", () => {
    expect(checkOrder({ name: " ", email: "x", paymentReference: "" })).toEqual({
      name: "Please enter your full name.",
      email: "Please provide a valid email address.",
      paymentReference: "Payment confirmation code is required.",
    });
  });
});

describe("checkPortraitFile", () => {
  it("accepts an image of any size: only the cropped picture is sent", () => {
    expect(checkPortraitFile({ type: "image/jpeg", size: 6 * 1024 * 1024 })).toBeNull();
    expect(checkPortraitFile({ type: "image/jpeg", size: 30_000_000 })).toBeNull();
    expect(checkPortraitFile({ type: "image/heic", size: 3_000_000 })).toBeNull();
  });
  it("refuses other types", () => {
    expect(checkPortraitFile({ type: "application/pdf", size: 10 })).toBe(PORTRAIT_TYPE_MESSAGE);
  });
});
