/** Browser-only helpers for the badge page: copying and best-effort tracking. */

/** 'clipboard' or 'fallback' (the old select-and-copy way) when copied, false when not. */
export async function copyText(text: string, container?: Element | null): Promise<"clipboard" | "fallback" | false> {
  try {
    await navigator.clipboard.writeText(text);
    return "clipboard";
  } catch {
    // No clipboard API (older browsers, plain http): try the old way.
  }
  try {
    // Inside a modal dialog the rest of the page is inert, so the helper lives in the dialog.
    const host = container ?? document.body;
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    host.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok ? "fallback" : false;
  } catch {
    return false;
  }
}

/** badge.view, badge.download, badge.copy_id, badge.copy_link, badge.share.linkedin, badge.share.whatsapp */
export function trackBadge(name: string, id: string) {
  try {
    const body = JSON.stringify({ type: "event", name, meta: { id }, path: window.location.pathname });
    navigator.sendBeacon("/api/track.php", new Blob([body], { type: "application/json" }));
  } catch {
    // Tracking is best effort.
  }
}
