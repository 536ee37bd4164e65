import { isDatabaseUnavailable } from "./database-unavailable";

/**
 * A background pass that never runs twice at once: `kick()` starts it now, or, while one is
 * running, asks for one more pass right after it (however many kicks came meanwhile). A pass
 * that fails is logged under `label`; kick never throws. `idle()` waits until nothing runs.
 */
export function singleFlight(label: string, pass: () => Promise<void>) {
  let running: Promise<void> | undefined;
  let again = false;
  const kick = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await pass();
        } while (again);
      } catch (e) {
        // The database being away is logged once where it is noticed; the next pass tries again.
        if (!isDatabaseUnavailable(e)) console.error(`[${label}] background pass failed`, e);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  const idle = async () => {
    while (running) await running;
  };
  return { kick, idle };
}
