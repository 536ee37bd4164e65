import net from "node:net";

/**
 * TRUST_PROXY: which connections may say who the client is. Only a connection from one of the
 * proxy's addresses (loopback when TRUST_PROXY is just 'on') has its X-Forwarded-* headers
 * believed; anyone else reaching the site's port directly is taken at its socket address, so a
 * forged X-Forwarded-For changes nothing (not the logs, not the per-address limits).
 */

/** The addresses TRUST_PROXY=on stands for: a proxy on this machine (Caddy, nginx). */
export const LOOPBACK_PROXIES = ["127.0.0.0/8", "::1"] as const;

/** "203.0.113.5" or "10.0.0.0/8" or "fd00::/8": a valid address or subnet, else null. */
function entry(text: string): { address: string; prefix: number | null; family: "ipv4" | "ipv6" } | null {
  const [address = "", prefixText, extra] = text.split("/");
  if (extra !== undefined) return null;
  const kind = net.isIP(address);
  if (!kind) return null;
  const max = kind === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: null, family: kind === 4 ? "ipv4" : "ipv6" };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return null;
  return { address, prefix: Number(prefixText), family: kind === 4 ? "ipv4" : "ipv6" };
}

/**
 * TRUST_PROXY's value as a list of addresses: [] for off, loopback for on, else the
 * comma-separated addresses or subnets given; null when something in it is not one.
 */
export function parseTrustProxy(value: string | undefined): string[] | null {
  const text = (value ?? "").trim().toLowerCase();
  if (["", "off", "false", "0", "no"].includes(text)) return [];
  if (["on", "true", "1", "yes", "loopback"].includes(text)) return [...LOOPBACK_PROXIES];
  const list = text.split(",").map((s) => s.trim()).filter(Boolean);
  if (!list.length || !list.every((s) => s === "loopback" || entry(s))) return null;
  return [...new Set(list.flatMap((s) => (s === "loopback" ? [...LOOPBACK_PROXIES] : [s])))];
}

export type TrustedProxies = { has: (address: string | undefined) => boolean; any: boolean };

/** A quick membership test for the list parseTrustProxy gave. */
export function trustedProxies(list: readonly string[]): TrustedProxies {
  const block = new net.BlockList();
  for (const text of list) {
    const e = entry(text);
    if (!e) continue;
    if (e.prefix === null) block.addAddress(e.address, e.family);
    else block.addSubnet(e.address, e.prefix, e.family);
  }
  return {
    any: list.length > 0,
    has(address) {
      if (!address || !list.length) return false;
      const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
      const kind = net.isIP(plain);
      return kind !== 0 && block.check(plain, kind === 4 ? "ipv4" : "ipv6");
    },
  };
}

/**
 * True when this connection comes from a trusted proxy, so its X-Forwarded-For, -Proto and
 * -Host may be read. Everything that reads a forwarded header asks this first.
 */
export function fromTrustedProxy(socketAddress: string | undefined, proxies: TrustedProxies): boolean {
  return proxies.has(socketAddress);
}

/**
 * The client's address: the socket's; or, for a connection from a trusted proxy, the nearest
 * X-Forwarded-For hop that is not itself a trusted proxy (what the proxy saw connect to it).
 * A hop that is not an address is not believed.
 */
export function clientAddressOf(forwardedFor: string | null | undefined, socketAddress: string | undefined, proxies: TrustedProxies): string {
  const socket = (socketAddress ?? "").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  if (!forwardedFor || !fromTrustedProxy(socketAddress, proxies)) return socket;
  const hops = forwardedFor.split(",").map((s) => s.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
    if (hop.length > 64 || !net.isIP(hop)) return socket;
    if (!proxies.has(hop)) return hop;
  }
  return socket;
}

/**
 * For a site whose PUBLIC_URL is https: the https address to send a GET or HEAD to when a
 * trusted proxy says (X-Forwarded-Proto: http) that the visitor came over plain http, which a
 * proxy that does not redirect by itself passes on; else null. Nobody else's header counts.
 */
export function httpsLocation(
  method: string | undefined,
  forwardedProto: string | string[] | undefined,
  viaProxy: boolean,
  url: URL,
  publicOrigin: string,
): string | null {
  if (!viaProxy || !publicOrigin.startsWith("https://") || (method !== "GET" && method !== "HEAD")) return null;
  const proto = (Array.isArray(forwardedProto) ? forwardedProto[0] : forwardedProto)?.split(",")[0]?.trim().toLowerCase();
  return proto === "http" ? `${publicOrigin}${url.pathname}${url.search}` : null;
}
