import { describe, expect, it, vi } from "vitest";
import { singleFlight } from "./single-flight";

describe("singleFlight", () => {
  it("never runs two passes at once; kicks during a pass ask for exactly one more", async () => {
    let active = 0;
    let most = 0;
    let passes = 0;
    let release!: () => void;
    const { kick, idle } = singleFlight("test", async () => {
      passes++;
      active++;
      most = Math.max(most, active);
      if (passes === 1) await new Promise<void>((r) => (release = r));
      active--;
    });
    void kick();
    void kick();
    void kick();
    release();
    await idle();
    expect(most).toBe(1);
    expect(passes).toBe(2);
    await kick();
    expect(passes).toBe(3);
  });

  it("a failing pass is logged and the next kick runs again", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    let calls = 0;
    const { kick } = singleFlight("flaky", async () => {
      calls++;
      if (calls === 1) throw new Error("disk full");
    });
    await expect(kick()).resolves.toBeUndefined();
    expect(log).toHaveBeenCalledWith("[flaky] background pass failed", expect.any(Error));
    await kick();
    expect(calls).toBe(2);
    log.mockRestore();
  });
});
