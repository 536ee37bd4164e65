/**
 * Copying and sharing links from the browser: the Clipboard API with the old select-and-copy
 * way as its fallback, the device share sheet, and the share links that work without script.
 */

export type Copied = "clipboard" | "fallback" | false;

/**
 * Copies text: 'clipboard' or 'fallback' (the old select-and-copy way, for older browsers and
 * plain http) when copied, false when not. Inside a modal dialog the rest of the page is inert,
 * so pass an element inside the dialog as `host` for the fallback's helper field.
 */
export async function copyText(text: string, host?: Element | null): Promise<Copied> {
  try {
    await navigator.clipboard.writeText(text);
    return "clipboard";
  } catch {
    // No clipboard API here: try the old way.
  }
  try {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    (host ?? document.body).appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok ? "fallback" : false;
  } catch {
    return false;
  }
}

export type ShareData = { title: string; text: string; url: string };

/**
 * The device share sheet: 'shared', 'cancelled' (the person closed it: say nothing), or
 * 'unavailable' (no share sheet, or it failed), where the caller copies the link instead.
 */
export async function openShareSheet(data: ShareData): Promise<"shared" | "cancelled" | "unavailable"> {
  if (typeof navigator.share !== "function") return "unavailable";
  try {
    await navigator.share(data);
    return "shared";
  } catch (e) {
    return e instanceof DOMException && e.name === "AbortError" ? "cancelled" : "unavailable";
  }
}

/** The share sheet where there is one, else a copy of the link. */
export async function shareOrCopy(data: ShareData, host?: Element | null): Promise<"shared" | "cancelled" | Copied> {
  const sheet = await openShareSheet(data);
  return sheet === "unavailable" ? copyText(data.url, host) : sheet;
}

/** Share links that work without script. */
export const whatsAppShareUrl = (text: string) => `https://wa.me/?text=${encodeURIComponent(text)}`;
export const twitterShareUrl = (url: string, text: string) =>
  `https://twitter.com/intent/tweet?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`;
export const facebookShareUrl = (url: string) => `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`;

/** What LinkedIn's add-to-profile form takes for a certification (month 1-12; year and month may be ''). */
export type LinkedInCertification = {
  name: string;
  organizationName: string;
  issueYear: string;
  issueMonth: string;
  certUrl: string;
  certId: string;
};

/** LinkedIn's add-to-profile link for a certification (best effort: LinkedIn may not prefill). */
export const linkedInAddToProfileUrl = (fields: LinkedInCertification) =>
  `https://www.linkedin.com/profile/add?${new URLSearchParams({ startTask: "CERTIFICATION_NAME", ...fields })}`;
