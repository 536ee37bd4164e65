import { describe, expect, it } from "vitest";
import { WALL_NAME_MAX_LENGTH, WALL_NAME_PATTERN, wallNameOf } from "./wall";

describe("the name shown on the supporter wall", () => {
  it("is the chosen wall name, else the first word of the full name", () => {
    expect(wallNameOf({ name: "Achieng Otieno", wallName: "" })).toBe("Achieng");
    expect(wallNameOf({ name: "Achieng Otieno", wallName: " The Otienos " })).toBe("The Otienos");
  });

  it("follows the wall name's rules even when it comes from the full name", () => {
    const shown = [
      wallNameOf({ name: "<b>Joy</b> Wanjiru", wallName: "" }),
      wallNameOf({ name: "Ann\u202e\u200bgnikcah", wallName: "" }),
      wallNameOf({ name: "https://spam.example/buy-now", wallName: "" }),
      wallNameOf({ name: "Mũthoni😀", wallName: "" }),
      wallNameOf({ name: "A".repeat(90), wallName: "" }),
    ];
    expect(shown).toEqual(["bJoyb", "Anngnikcah", "httpsspam.examplebuy-now", "Mũthoni", "A".repeat(WALL_NAME_MAX_LENGTH)]);
    for (const name of shown) {
      expect(name).toMatch(WALL_NAME_PATTERN);
      expect(name.length).toBeLessThanOrEqual(WALL_NAME_MAX_LENGTH);
    }
  });

  it("shows nothing rather than a name made only of characters the wall does not allow", () => {
    expect(wallNameOf({ name: "@@@ ###", wallName: "" })).toBe("");
  });
});
