import http from "node:http";
import type { AddressInfo } from "node:net";
import * as stkCallback from "~/routes/api/stk-callback";
import { args } from "./http";

/**
 * The site's M-Pesa Express callback URL as Safaricom reaches it, for tests that call the routes
 * in-process: a real HTTP server on 127.0.0.1 whose requests go into the route's action (from a
 * Safaricom address). The fake Daraja posts its callbacks here.
 */
export async function startStkCallbackBridge(): Promise<{ url: string; close: () => Promise<void> }> {
  const bridge = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", async () => {
      const secret = decodeURIComponent(req.url!.split("/").pop()!);
      const request = new Request(`http://site.test${req.url}`, { method: "POST", body: text, headers: { "content-type": "application/json" } });
      const answer: Response = await stkCallback.action({ ...args(request, "196.201.214.200"), params: { secret } } as never);
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(await answer.text());
    });
  });
  await new Promise<void>((r) => bridge.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(bridge.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => bridge.close(() => r())),
  };
}
