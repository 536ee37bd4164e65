// What React Router's request handling costs a JSON API request, apart from the route's own work:
// `node tests/bench/router-cost.mjs` (after `npm run build`). The built server's routes are used as
// they are, except that the order route (POST /api/badge_orders.php) answers at once; each round
// times 20,000 requests handed straight to that answer and 20,000 through React Router's request
// handler, one at a time, in this process, and prints the difference per request.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "react-router";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const { build } = await import(pathToFileURL(path.join(ROOT, "build/server/index.js")).href);
const ADDRESS = "api/badge_orders.php";
const id = Object.keys(build.routes).find((k) => build.routes[k].path === ADDRESS);
if (!id) throw new Error(`no route at /${ADDRESS} in the build`);
const answer = async () => new Response('{"ok":true}', { headers: { "Content-Type": "application/json" } });
const routes = { ...build.routes, [id]: { ...build.routes[id], module: { action: answer, loader: answer } } };
const handler = createRequestHandler({ ...build, routes }, "production");
const order = () => new Request(`http://127.0.0.1/${ADDRESS}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });

async function perRequestUs(n, call) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await call();
  return Number(process.hrtime.bigint() - started) / 1e3 / n;
}
for (let round = 1; round <= 3; round++) {
  const direct = await perRequestUs(20_000, () => answer({ request: order() }));
  const routed = await perRequestUs(20_000, () => handler(order(), {}));
  console.log(`round ${round}: straight to the action ${direct.toFixed(1)} µs, through React Router ${routed.toFixed(1)} µs: React Router's part ${(routed - direct).toFixed(1)} µs a request`);
}
