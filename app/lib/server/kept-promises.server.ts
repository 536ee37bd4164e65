/**
 * Work done once per key and its result kept in this process (the oldest dropped past `max`):
 * callers asking at the same time share one promise; a failure is not kept, so the next call
 * tries again. For results any process can remake the same (resized pictures), not shared state.
 */
export function keptPromises<T>(max: number) {
  const kept = new Map<string, Promise<T>>();
  return (key: string, make: () => Promise<T>): Promise<T> => {
    let hit = kept.get(key);
    if (!hit) {
      if (kept.size >= max) kept.delete(kept.keys().next().value!);
      hit = make();
      kept.set(key, hit);
      hit.catch(() => kept.delete(key));
    }
    return hit;
  };
}
