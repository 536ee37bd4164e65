import { describe, expect, it } from "vitest";
import { loggablePath } from "./access-log";

describe("the access log's path", () => {
  it("keeps query names, drops their values, hides the callback secret and any address in the path", () => {
    expect(loggablePath("/unsubscribe?token=abc123&x=1", [])).toBe("/unsubscribe?token=…&x=…");
    expect(loggablePath("/api/pay/c2b/confirmation/cbsecret0123456789", ["cbsecret0123456789"])).toBe("/api/pay/c2b/confirmation/[secret]");
    expect(loggablePath("/badges/cards/jane%40example.org?jane@example.org=1", [])).toBe("/badges/cards/[address]?…=…");
    expect(loggablePath("/", [""])).toBe("/");
  });
});
