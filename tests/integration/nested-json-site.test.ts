import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSON_TOO_DEEP } from "~/lib/core/bounded-json";
import { ROOT } from "../support/e2e-env";
import { builtSite } from "../support/outage";
import { testDatabaseKind } from "../support/reset";
import { servingPids, startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * Three 4 MB bodies of the shape {"name":[[[…]]]} (2,000,000 deep) posted at once to the badge
 * API of a site that has just said it is serving, while /about is asked for ten times, 100 ms
 * apart; then more of them, sent every way a client can (headers and body in one write, body
 * after headers, in small pieces), to the warm site.
 *
 * The loop is measured from inside the server process (tests/support/loop-probe.mjs) in CPU time
 * of its main thread, so the shared test machine's load does not count: no turn of the loop may
 * hold it long, from the moment the site says it is serving (the badge renderer's warm-up, which
 * held it twice for about half a second, is done before it listens). The bound on /about's wall
 * time is generous (this machine is shared); on a quiet one every answer takes a few milliseconds.
 */

/**
 * The longest wall-clock wait allowed for /about: generous on a shared machine; on a quiet one,
 * NESTED_JSON_MAX_MS=100 holds (the first page of a fresh site included).
 */
const MAX_WAIT_MS = Number(process.env.NESTED_JSON_MAX_MS) || 5_000;
// The longest turn of the server's loop, as its own CPU time. A loaded machine (the whole suite at
// once) hands the server several pieces of a body in one turn, so the default leaves room for
// that; NESTED_JSON_MAX_HOLD_MS=50 applies the budget on a quiet machine. The old code held the
// loop 491-648 ms here (the warm-up after listening; whole bodies decoded at once).
const MAX_HOLD_MS = Number(process.env.NESTED_JSON_MAX_HOLD_MS) || 150;
const PROBE = path.join(ROOT, "tests/support/loop-probe.mjs");
const probeWorks = fs.existsSync("/proc/thread-self/schedstat");

function get(port: number, target: string) {
  return new Promise<{ ms: number; status: number }>((resolve) => {
    const started = performance.now();
    http.get({ host: "127.0.0.1", port, path: target, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
    });
  });
}

type Way = "one-write" | "head-then-body" | "pieces";
type Body = { bytes: Buffer; type: string };

/** The body posted over a raw socket, `way` deciding how its bytes are written; answers the status line and the body of the answer. */
function post(port: number, body: Buffer, way: Way, type = "application/json") {
  return new Promise<{ status: number; text: string }>((resolve) => {
    const head = Buffer.from(
      `POST /api/badge_orders.php HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
        `Content-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const socket = net.connect(port, "127.0.0.1", async () => {
      if (way === "one-write") socket.write(Buffer.concat([head, body]));
      else if (way === "head-then-body") {
        socket.write(head);
        socket.write(body);
      } else {
        socket.write(head);
        for (let at = 0; at < body.length && !socket.destroyed; at += 16_384) {
          if (!socket.write(body.subarray(at, at + 16_384))) await new Promise((r) => socket.once("drain", r));
        }
      }
    });
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", () => {});
    socket.on("close", () => {
      const answer = Buffer.concat(chunks).toString();
      // The JSON of the answer (sent whole, or as one chunk of a chunked answer).
      const body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0), text: body.slice(body.indexOf("{"), body.lastIndexOf("}") + 1) });
    });
  });
}

/** The longest turn of the loop the probe printed in `output` (0 when none was over 10 ms). */
const longestHold = (output: string) => Math.max(0, ...[...output.matchAll(/\[loop-probe\] held (\d+) ms/g)].map((m) => Number(m[1])));

const depth = 2_000_000;
const deep = Buffer.from(`{"name":${"[".repeat(depth)}${"]".repeat(depth)}}`);

describe.runIf(testDatabaseKind === "sqlite")("hostile nested JSON bodies under a running site", () => {
  let site: SiteProcess | undefined;

  beforeAll(async () => {
    builtSite();
    site = await startSiteProcess("nested-json-site", probeWorks ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${PROBE}`.trim() } : {});
  }, 150_000);

  afterAll(async () => {
    await site?.stop();
  });

  it("are each refused for their depth while a site that has just started keeps answering /about", async () => {
    const port = site!.port;
    // From the moment the site says it is serving: nothing it does at start may hold the loop.
    const posts = Array.from({ length: 3 }, () => post(port, deep, "one-write"));
    const answers: { ms: number; status: number }[] = [];
    for (let i = 0; i < 10; i++) {
      answers.push(await get(port, "/about"));
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const a of await Promise.all(posts)) {
      expect(a.status).toBe(400);
      expect(JSON.parse(a.text)).toEqual({ ok: false, error: JSON_TOO_DEEP });
    }
    const times = answers.map((a) => Math.round(a.ms));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const served = site!.output().slice(site!.output().indexOf("[http] serving"));
    if (probeWorks) {
      expect(servingPids(site!.output()).length).toBe(1);
      // The first /about is drawn here (some 50-90 ms of CPU on a small machine): that is the
      // page's own work. Nothing else comes near it.
      expect(longestHold(served), served).toBeLessThan(150);
    }
    expect(Math.max(...times), `GET /about took ${times.join(", ")} ms\n${served}`).toBeLessThan(MAX_WAIT_MS);
    expect(site!.output()).not.toMatch(/uncaught exception|exited with code/);
  }, 60_000);

  it("hold the loop no turn over the budget (50 ms quiet) however they are sent, and /about answers meanwhile", async () => {
    const port = site!.port;
    for (const way of ["one-write", "head-then-body", "pieces"] as const) {
      const before = site!.output().length;
      const posts = Array.from({ length: 6 }, () => post(port, deep, way));
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const a = await get(port, "/about");
        expect(a.status).toBe(200);
        times.push(Math.round(a.ms));
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const a of await Promise.all(posts)) expect(a.status, way).toBe(400);
      expect(Math.max(...times), `${way}: GET /about took ${times.join(", ")} ms`).toBeLessThan(MAX_WAIT_MS);
      if (probeWorks) expect(longestHold(site!.output().slice(before)), `${way}\n${site!.output().slice(before)}`).toBeLessThan(MAX_HOLD_MS);
    }
    expect(site!.output()).not.toMatch(/uncaught exception|exited with code/);
  }, 90_000);

  it("and form bodies the JSON API also takes (a million fields, eight megabytes of '+'), and JSON of 49,000 names, hold the loop no turn over the budget either", async () => {
    const port = site!.port;
    const forms: Record<string, Body> = {
      "fields": { bytes: Buffer.from("a=&".repeat(2_700_000)), type: "application/x-www-form-urlencoded" },
      "distinct fields": { bytes: Buffer.from(Array.from({ length: 900_000 }, (_, i) => `k${i}=`).join("&")), type: "application/x-www-form-urlencoded" },
      "plus signs": { bytes: Buffer.from(`name=${"+".repeat(8_000_000)}`), type: "application/x-www-form-urlencoded" },
      "JSON names": { bytes: Buffer.from(`{${Array.from({ length: 49_000 }, (_, i) => `"k${i}":""`).join(",")}}`), type: "application/json" },
    };
    for (const [label, body] of Object.entries(forms)) {
      const before = site!.output().length;
      const posts = Array.from({ length: 3 }, () => post(port, body.bytes, "one-write", body.type));
      const a = await get(port, "/about");
      expect(a.status).toBe(200);
      for (const answer of await Promise.all(posts)) expect(answer.status, label).toBeGreaterThanOrEqual(400);
      expect(a.ms, label).toBeLessThan(MAX_WAIT_MS);
      if (probeWorks) expect(longestHold(site!.output().slice(before)), `${label}\n${site!.output().slice(before)}`).toBeLessThan(MAX_HOLD_MS);
    }
  }, 90_000);
});
