import { describe, expect, it } from "vitest";
import { clientAddressOf, fromTrustedProxy, httpsLocation, parseTrustProxy, trustedProxies } from "./trusted-proxy";

describe("TRUST_PROXY: whose forwarded headers are believed", () => {
  it("reads off, on (loopback) and lists of addresses and subnets", () => {
    expect(parseTrustProxy(undefined)).toEqual([]);
    expect(parseTrustProxy("off")).toEqual([]);
    expect(parseTrustProxy("on")).toEqual(["127.0.0.0/8", "::1"]);
    expect(parseTrustProxy("10.0.0.5, fd00::/8")).toEqual(["10.0.0.5", "fd00::/8"]);
    expect(parseTrustProxy("loopback,10.1.0.0/16")).toEqual(["127.0.0.0/8", "::1", "10.1.0.0/16"]);
    for (const bad of ["sometimes", "10.0.0.0/33", "proxy.example.org", "10.0.0.1/8/2", ",", "::1/129"]) expect(parseTrustProxy(bad), bad).toBeNull();
  });

  it("believes X-Forwarded-For only from the proxy's addresses", () => {
    const on = trustedProxies(parseTrustProxy("on")!);
    expect(clientAddressOf("203.0.113.77", "127.0.0.1", on)).toBe("203.0.113.77");
    expect(clientAddressOf("203.0.113.77", "::ffff:127.0.0.1", on)).toBe("203.0.113.77");
    expect(clientAddressOf("203.0.113.77", "::1", on)).toBe("203.0.113.77");
    // Straight to the port from elsewhere: the socket's address, whatever the header says.
    expect(clientAddressOf("203.0.113.77", "198.51.100.9", on)).toBe("198.51.100.9");
    expect(clientAddressOf("203.0.113.77", "::ffff:198.51.100.9", on)).toBe("198.51.100.9");
    expect(fromTrustedProxy("198.51.100.9", on)).toBe(false);
    const off = trustedProxies([]);
    expect(clientAddressOf("203.0.113.77", "127.0.0.1", off)).toBe("127.0.0.1");
    expect(fromTrustedProxy("127.0.0.1", off)).toBe(false);
  });

  it("takes the nearest hop that is not a proxy, and never a hop that is not an address", () => {
    const list = trustedProxies(parseTrustProxy("10.0.0.0/8,127.0.0.1")!);
    // client -> CDN edge 10.2.3.4 -> Caddy (local): the client wrote a fake first hop.
    expect(clientAddressOf("1.2.3.4, 203.0.113.8, 10.2.3.4", "127.0.0.1", list)).toBe("203.0.113.8");
    expect(clientAddressOf("not-an-address", "127.0.0.1", list)).toBe("127.0.0.1");
    expect(clientAddressOf("::::, 999.1.1.1", "127.0.0.1", list)).toBe("127.0.0.1");
    expect(clientAddressOf("10.9.9.9", "127.0.0.1", list)).toBe("127.0.0.1");
    expect(clientAddressOf("2001:db8::7", "10.1.1.1", list)).toBe("2001:db8::7");
    expect(clientAddressOf("203.0.113.8", "127.0.0.2", list)).toBe("127.0.0.2");
  });

  it("sends a plain-http visitor to https only on the proxy's word and only for https sites", () => {
    const url = new URL("http://x/join?a=1");
    expect(httpsLocation("GET", "http", true, url, "https://example.org")).toBe("https://example.org/join?a=1");
    expect(httpsLocation("GET", "https", true, url, "https://example.org")).toBeNull();
    expect(httpsLocation("GET", "http", false, url, "https://example.org")).toBeNull();
    expect(httpsLocation("POST", "http", true, url, "https://example.org")).toBeNull();
    expect(httpsLocation("GET", "http", true, url, "http://example.org")).toBeNull();
  });
});
