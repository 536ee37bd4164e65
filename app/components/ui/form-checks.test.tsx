import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { fieldError, firstWithError, otherErrors, useFormChecks } from "./form-checks";

const FIELDS = ["name", "email", "paymentReference"] as const;
const refused = {
  status: "error" as const,
  values: { name: "Wanjiku", email: "w@x" },
  fieldErrors: { email: ["Please provide a valid email address."], tierKey: ["Tier configuration missing."] },
};

describe("fieldError", () => {
  const none = { edited: new Set<string>(), clientErrors: {}, busy: false };

  it("shows the server's message when the browser found nothing", () => {
    expect(fieldError("email", { ...none, reply: refused })).toBe("Please provide a valid email address.");
    expect(fieldError("name", { ...none, reply: refused })).toBeUndefined();
  });

  it("prefers the browser's own check, and hides the old reply while a new one is on its way", () => {
    const clientErrors = { name: "Please enter your full name." };
    expect(fieldError("name", { ...none, clientErrors, reply: refused })).toBe("Please enter your full name.");
    expect(fieldError("email", { ...none, clientErrors, reply: refused })).toBeUndefined();
    expect(fieldError("email", { ...none, busy: true, reply: refused })).toBeUndefined();
  });

  it("shows nothing on a field edited since the last submit", () => {
    expect(fieldError("email", { ...none, edited: new Set(["email"]), reply: refused })).toBeUndefined();
  });
});

describe("firstWithError and otherErrors", () => {
  it("go by the form's order of fields", () => {
    expect(firstWithError(FIELDS, { paymentReference: "x", email: "y" })).toBe("email");
    expect(firstWithError(FIELDS, {})).toBeUndefined();
    expect(firstWithError(FIELDS, undefined)).toBeUndefined();
  });

  it("collect what the banner says: messages about anything but the form's fields", () => {
    expect(otherErrors(FIELDS, refused)).toEqual(["Tier configuration missing."]);
    expect(otherErrors(FIELDS, undefined)).toEqual([]);
  });
});

function Probe({ reply }: { reply?: typeof refused }) {
  const { field, values, errorOf } = useFormChecks({ fields: FIELDS, reply, busy: false, idPrefix: "order" });
  return (
    <form>
      <input {...field("name")} />
      <input {...field("email")} />
      <output>{`${values.email ?? ""}|${errorOf("email") ?? ""}`}</output>
    </form>
  );
}

describe("useFormChecks, as the server renders a refused form", () => {
  it("keeps what was typed and wires each error to its field", () => {
    const html = renderToStaticMarkup(<Probe reply={refused} />);
    expect(html).toContain(`<input id="order-name" name="name" value="Wanjiku"/>`);
    expect(html).toContain(`<input id="order-email" aria-invalid="true" aria-describedby="order-email-error" name="email" value="w@x"/>`);
    expect(html).toContain("<output>w@x|Please provide a valid email address.</output>");
  });

  it("starts empty without a reply", () => {
    const html = renderToStaticMarkup(<Probe />);
    expect(html).toContain(`<input id="order-email" name="email" value=""/>`);
  });
});
