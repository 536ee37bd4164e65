import { afterEach, describe, expect, it } from "vitest";
import { BUSY_HOLD_MS, LAG_LIMIT_MS, loopBusy, noteLag, startLoopWatch, stopLoopWatch } from "./loop-watch.server";

afterEach(() => stopLoopWatch());

const hold = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // The event loop is held, as a heavy request would hold it.
  }
};
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the event-loop watch", () => {
  it("is busy after three samples in a row over the limit, and for a moment only", () => {
    const now = 1_000_000;
    noteLag(LAG_LIMIT_MS * 5, 1, now);
    noteLag(LAG_LIMIT_MS * 5, 1, now);
    expect(loopBusy(now), "a long moment or two is not a load").toBe(false);
    noteLag(LAG_LIMIT_MS + 1, 1, now);
    expect(loopBusy(now)).toBe(true);
    expect(loopBusy(now + BUSY_HOLD_MS - 1)).toBe(true);
    expect(loopBusy(now + BUSY_HOLD_MS)).toBe(false);
    noteLag(LAG_LIMIT_MS - 1, 1, now + 10);
    noteLag(LAG_LIMIT_MS * 2, 1, now + 20);
    noteLag(LAG_LIMIT_MS * 2, 1, now + 30);
    expect(loopBusy(now + BUSY_HOLD_MS + 30)).toBe(false);
    // Late timers while the loop was mostly idle: this process waiting for a CPU, not a load.
    for (let i = 0; i < 5; i++) noteLag(LAG_LIMIT_MS * 3, 0.3, now + 40);
    expect(loopBusy(now + 40)).toBe(false);
  });

  it("stops being busy as soon as the loop is seen idle", () => {
    const now = 2_000_000;
    for (let i = 0; i < 3; i++) noteLag(LAG_LIMIT_MS * 2, 1, now);
    expect(loopBusy(now)).toBe(true);
    noteLag(0, 0.1, now + 100);
    expect(loopBusy(now + 100)).toBe(true);
    noteLag(0, 0.1, now + 200);
    expect(loopBusy(now + 200)).toBe(false);
  });

  it("notices a loop held again and again, and lets go once it is free", async () => {
    startLoopWatch();
    await wait(250);
    expect(loopBusy()).toBe(false);
    for (let i = 0; i < 5; i++) {
      hold(LAG_LIMIT_MS * 2);
      await wait(5);
    }
    await wait(150);
    expect(loopBusy()).toBe(true);
    await wait(BUSY_HOLD_MS + 400);
    expect(loopBusy()).toBe(false);
  });
});
