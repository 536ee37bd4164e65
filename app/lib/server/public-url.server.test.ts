import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";
import { publicUrlRefusal } from "./public-url.server";

const production = (vars: Record<string, string>) => publicUrlRefusal(parseEnv({ NODE_ENV: "production", ...vars }));

describe("a production start and PUBLIC_URL", () => {
  it("refuses a missing PUBLIC_URL with a sentence saying why and how to say it is intended", () => {
    const refusal = production({});
    expect(refusal).toMatch(/^PUBLIC_URL is not set: links in emails, share pages and QR codes would point to http:\/\/localhost:3000/);
    expect(refusal).toContain("ALLOW_LOCAL_PUBLIC_URL=on");
  });

  it.each(["http://localhost:3000", "http://127.0.0.1:54201", "http://[::1]:3000", "http://0.0.0.0", "http://site.localhost", "http://outreach.local"])("refuses the local %s", (url) => {
    expect(production({ PUBLIC_URL: url })).toMatch(/a local address/);
  });

  it("accepts a public address, a local one said to be intended, and anything outside production", () => {
    expect(production({ PUBLIC_URL: "https://outreach.example.org" })).toBeNull();
    expect(production({ PUBLIC_URL: "http://192.0.2.10" })).toBeNull();
    expect(production({ PUBLIC_URL: "http://127.0.0.1:54201", ALLOW_LOCAL_PUBLIC_URL: "on" })).toBeNull();
    expect(production({ ALLOW_LOCAL_PUBLIC_URL: "on" })).toBeNull();
    // Listening on loopback only, a local PUBLIC_URL is the site's own address (a trial on one machine)...
    expect(production({ PUBLIC_URL: "http://127.0.0.1:54201", HOST: "127.0.0.1" })).toBeNull();
    // ...but a missing one is still refused, and so is a local one on a site others can reach.
    expect(production({ HOST: "127.0.0.1" })).toMatch(/^PUBLIC_URL is not set/);
    expect(production({ PUBLIC_URL: "http://localhost:3000", HOST: "0.0.0.0" })).toMatch(/a local address/);
    expect(publicUrlRefusal(parseEnv({ NODE_ENV: "development" }))).toBeNull();
  });
});
