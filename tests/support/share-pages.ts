import { expect } from "vitest";

/** Share pages (resource routes) carry the site's Content-Security-Policy; they run no script. */
export function expectSharePagePolicy(res: Response) {
  const csp = res.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("base-uri 'self'");
}
