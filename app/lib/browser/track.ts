/** Fire-and-forget tracking from the browser (spec section 7, POST /api/track.php). */
type Meta = Record<string, string | number | boolean | null>;

export function sendTrack(payload: Record<string, unknown>) {
  if (typeof navigator === "undefined" || typeof navigator.sendBeacon !== "function") return;
  try {
    navigator.sendBeacon("/api/track.php", new Blob([JSON.stringify(payload)], { type: "application/json" }));
  } catch {
    // Tracking never gets in the visitor's way.
  }
}

export function trackEvent(name: string, meta?: Meta) {
  if (typeof location === "undefined") return;
  sendTrack({ type: "event", name, meta, path: location.pathname });
}
