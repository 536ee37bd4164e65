// Section k of `npm run bench`: each public page under load, as first visits (no cookie), beside
// the ceiling for its own bytes: a bare node:http server in a process of its own that answers
// every request with the page's exact body and headers from memory. The ratio (site / ceiling)
// is comparable between machines and runs; absolute rates are not.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort } from "./server.mjs";
import { printTable } from "./util.mjs";

/** Goals of issue 14 (share of the ceiling, p99 ms); pages without one are reported only. */
export const CEILING_GOALS = {
  "/": { share: 0.4, p99: 30 },
  "/blogs": { share: 0.3, p99: 50 },
};

const BARE = `
const http = require("node:http");
const fs = require("node:fs");
const { body, headers } = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const bytes = Buffer.from(body, "base64");
const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(bytes); });
server.keepAliveTimeout = 5000;
server.listen(Number(process.argv[2]), "127.0.0.1", () => process.send && process.send("ready"));
`;

const run = (url, connections, duration) =>
  new Promise((resolve, reject) => {
    // No cookie jar: every request is a first visit, as a new visitor's is.
    autocannon({ url, connections, duration, timeout: 10 }, (err, res) => (err ? reject(err) : resolve(res)));
  });

async function bareServer(body, headers) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-bare-")), "page.json");
  fs.writeFileSync(file, JSON.stringify({ body: body.toString("base64"), headers }));
  const port = await freePort();
  const child = spawn(process.execPath, ["-e", BARE, file, String(port)], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () => {
      child.kill("SIGKILL");
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    },
  };
}

export async function pageCeilings(site, budget, { pages, connections, duration }) {
  const rows = [];
  for (const page of pages) {
    const first = await fetch(`${site.origin}${page}`);
    const body = Buffer.from(await first.arrayBuffer());
    const headers = {};
    first.headers.forEach((v, k) => {
      if (!["set-cookie", "content-length", "transfer-encoding", "connection", "keep-alive", "date", "content-encoding"].includes(k)) headers[k] = v;
    });
    const bare = await bareServer(body, headers);
    let ceiling;
    let measured;
    try {
      ceiling = await run(`${bare.origin}${page}`, connections, duration);
    } finally {
      bare.stop();
    }
    measured = await run(`${site.origin}${page}`, connections, duration);
    const share = measured.requests.average / ceiling.requests.average;
    rows.push([
      page,
      (body.length / 1000).toFixed(1),
      measured.requests.average.toFixed(0),
      String(measured.latency.p99),
      String(measured.non2xx),
      ceiling.requests.average.toFixed(0),
      String(ceiling.latency.p99),
      `${(share * 100).toFixed(0)}%`,
    ]);
    const goal = CEILING_GOALS[page];
    if (goal) {
      budget(
        `GET ${page}: share of its bare-bytes ceiling`,
        share >= goal.share && measured.non2xx === 0,
        `${(share * 100).toFixed(0)}% (${measured.requests.average.toFixed(0)} of ${ceiling.requests.average.toFixed(0)} req/s)`,
        `>= ${goal.share * 100}%`,
      );
      budget(`GET ${page}: p99 latency`, measured.latency.p99 <= goal.p99, `${measured.latency.p99} ms`, `<= ${goal.p99} ms`);
    }
  }
  console.log(`\n## k. Public pages as first visits vs the same bytes from a bare node:http server (${connections} connections, ${duration} s each)`);
  printTable(["page", "HTML kB", "site req/s", "site p99 ms", "site non-2xx", "bare req/s", "bare p99 ms", "site / bare"], rows);
}
