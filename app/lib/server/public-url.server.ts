import type { Env } from "./env.server";

/** A host name no supporter's phone can reach: this machine, or a name only a local network knows. */
export function isLocalHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    h === "localhost" ||
    h.endsWith(".localhost") ||
    h.endsWith(".local") ||
    h === "::1" ||
    h === "::" ||
    h === "0.0.0.0" ||
    /^127\.\d+\.\d+\.\d+$/.test(h) ||
    /^::ffff:127\./.test(h)
  );
}

/**
 * In production every link in mail, share pages and QR codes is built from PUBLIC_URL: a missing
 * or local one sends supporters to http://localhost. The sentence the start refuses with, or null.
 * A local PUBLIC_URL is refused only when the site listens beyond this machine (HOST).
 */
export function publicUrlRefusal(config: Pick<Env, "nodeEnv" | "allowLocalPublicUrl" | "publicUrlSet" | "publicUrl" | "host">): string | null {
  if (config.nodeEnv !== "production" || config.allowLocalPublicUrl) return null;
  const intended = "If the site is meant to be used only on this machine or its local network, set ALLOW_LOCAL_PUBLIC_URL=on.";
  if (!config.publicUrlSet) {
    return `PUBLIC_URL is not set: links in emails, share pages and QR codes would point to ${config.publicUrl}, which no supporter can open. Set PUBLIC_URL to the site's public address (e.g. https://example.org). ${intended}`;
  }
  const host = new URL(config.publicUrl).hostname;
  // A local PUBLIC_URL chosen for a site that listens on loopback only is consistent: nobody
  // else can open it, so its links are right (a trial of the production build on one machine).
  if (isLocalHost(host) && !listensOnLoopbackOnly(config.host)) {
    return `PUBLIC_URL is ${config.publicUrl}, a local address: links in emails, share pages and QR codes would point to it, and no supporter can open them. Set PUBLIC_URL to the site's public address (e.g. https://example.org). ${intended}`;
  }
  return null;
}

/** HOST names only this machine (not 0.0.0.0 or ::, which listen on every address). */
function listensOnLoopbackOnly(listen: string): boolean {
  const h = listen.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}
