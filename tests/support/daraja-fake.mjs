// A fake Daraja (Safaricom's M-Pesa API) speaking the published M-Pesa Express protocol, for
// tests and for trying the push on one machine: the OAuth token, the push (checks the
// password, timestamp and fields, answers as Daraja does), the query, and the result callback,
// sent when the test (or the 'phone' page at /) says so. Plain Node, no dependencies.
import crypto from "node:crypto";
import http from "node:http";

const DESCRIPTIONS = {
  0: "The service request is processed successfully.",
  1032: "Request cancelled by user",
  1037: "DS timeout user cannot be reached",
  1: "The balance is insufficient for the transaction",
  2001: "The initiator information is invalid.",
};

/** 'YYYYMMDDHHmmss' in Nairobi. */
export const nairobiStamp = (at = new Date()) => new Date(at.getTime() + 3 * 3600_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);

const receiptNumber = () => {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  let s = "T";
  for (const b of crypto.randomBytes(9)) s += abc[b % abc.length];
  return s;
};

/**
 * Starts the fake. `outcome` (paid, 1032, 1037, 1, 2001 or never) with `autoAfterMs` answers
 * every prompt by itself; otherwise each waits for `answer()` or the phone page.
 * `push`: 'ok' | '500' | 'hang' says how the push endpoint behaves; `pushDelayMs` holds an
 * accepted push's answer that long (the prompt is on the phone, and can be answered, meanwhile);
 * `query`: 'ok' | 'down' (the query endpoint cannot be reached: the connection is dropped).
 * A token the fake no longer knows (`expireTokens()`) is answered as Daraja does: HTTP 404,
 * errorCode 404.001.03 'Invalid Access Token'.
 */
export async function startDarajaFake(opts = {}) {
  const o = {
    port: 0,
    consumerKey: "fake-consumer-key",
    consumerSecret: "fake-consumer-secret",
    passkey: "fake-passkey-bfb279f9aa9bdbcf",
    expiresIn: "3599",
    push: "ok",
    outcome: null,
    autoAfterMs: 0,
    resultCodeAs: "number",
    pushDelayMs: 0,
    query: "ok",
    /** A number Daraja refuses as it refuses a number it cannot prompt (400.002.02 Invalid PhoneNumber). */
    refusePhone: null,
    log: false,
    ...opts,
  };
  /** @type {{ tokensIssued: number, pushes: any[], queries: number, callbacks: any[], refused: string[] }} */
  const state = { tokensIssued: 0, pushes: [], queries: 0, callbacks: [], refused: [] };
  const live = new Set();
  const hanging = new Set();

  const send = (res, status, body) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
    res.end(text);
  };
  const bad = (res, status, errorCode, errorMessage) => {
    state.refused.push(errorMessage);
    send(res, status, { requestId: crypto.randomUUID(), errorCode, errorMessage });
  };
  const readBody = (req) =>
    new Promise((resolve) => {
      let text = "";
      req.on("data", (c) => (text += c));
      req.on("end", () => resolve(text));
    });
  const bearerOk = (req) => {
    const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "");
    return m && live.has(m[1]);
  };
  const checkPassword = (body) => {
    if (!/^\d{14}$/.test(String(body.Timestamp ?? ""))) return "Bad Request - Invalid Timestamp";
    const stamp = String(body.Timestamp);
    // Nairobi time, within a few minutes of now.
    const asUtc = Date.UTC(+stamp.slice(0, 4), +stamp.slice(4, 6) - 1, +stamp.slice(6, 8), +stamp.slice(8, 10) - 3, +stamp.slice(10, 12), +stamp.slice(12, 14));
    if (Math.abs(asUtc - Date.now()) > 5 * 60_000) return "Bad Request - Invalid Timestamp (not Nairobi time now)";
    const expected = Buffer.from(`${body.BusinessShortCode}${o.passkey}${stamp}`).toString("base64");
    if (body.Password !== expected) return "Bad Request - Invalid Password";
    return null;
  };

  function callbackBody(p, code) {
    const cb = {
      MerchantRequestID: p.merchantRequestId,
      CheckoutRequestID: p.checkoutRequestId,
      ResultCode: o.resultCodeAs === "string" ? String(code) : code,
      ResultDesc: DESCRIPTIONS[code] ?? "Failed",
    };
    if (code === 0) {
      const items = [
        { Name: "Amount", Value: p.amount },
        { Name: "MpesaReceiptNumber", Value: p.receipt },
        { Name: "Balance" },
        { Name: "TransactionDate", Value: Number(nairobiStamp()) },
        { Name: "PhoneNumber", Value: Number(p.phone) },
      ];
      // In any order, as different accounts see them.
      for (let i = items.length - 1; i > 0; i--) {
        const j = crypto.randomInt(i + 1);
        [items[i], items[j]] = [items[j], items[i]];
      }
      cb.CallbackMetadata = { Item: items };
    }
    return { Body: { stkCallback: cb } };
  }

  /**
   * Settles a prompt: 'paid' or a ResultCode; 'never' settles it without sending the callback (the query still tells).
   * @param {string | undefined} checkoutRequestId the prompt, or the newest pending one
   * @param {string | number} outcome
   */
  async function answer(checkoutRequestId, outcome = "paid", { callback = outcome !== "never" } = {}) {
    const p = checkoutRequestId ? state.pushes.find((x) => x.checkoutRequestId === checkoutRequestId) : state.pushes.findLast((x) => x.state === "pending");
    if (!p) throw new Error(`no such prompt: ${checkoutRequestId ?? "(none pending)"}`);
    const code = outcome === "paid" || outcome === "never" ? 0 : Number(outcome);
    p.state = code === 0 ? "paid" : "failed";
    p.resultCode = code;
    if (code === 0) p.receipt = receiptNumber();
    if (!callback) return p;
    const body = callbackBody(p, code);
    try {
      const res = await fetch(p.callbackUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
      state.callbacks.push({ checkoutRequestId: p.checkoutRequestId, status: res.status, body });
    } catch (e) {
      state.callbacks.push({ checkoutRequestId: p.checkoutRequestId, status: 0, body, error: e.message });
    }
    return p;
  }

  /** Sends a prompt's callback again (Safaricom's duplicates). @param {string} checkoutRequestId */
  async function resend(checkoutRequestId) {
    const p = state.pushes.find((x) => x.checkoutRequestId === checkoutRequestId);
    const res = await fetch(p.callbackUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(callbackBody(p, p.resultCode)) });
    return res.status;
  }

  /**
   * A push's or a query's body when its token, JSON and password are right; else the error is
   * answered as Daraja answers it and the result is null.
   */
  function signedCall(req, res, text) {
    if (!bearerOk(req)) return bad(res, 404, "404.001.03", "Invalid Access Token"), null;
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      return bad(res, 400, "400.002.02", "Bad Request - Invalid JSON"), null;
    }
    const wrong = checkPassword(body);
    if (wrong) return bad(res, 400, "400.002.02", wrong), null;
    return body;
  }

  async function handle(req, res) {
    const url = new URL(req.url, "http://fake");
    if (req.method === "GET" && url.pathname === "/oauth/v1/generate") {
      const basic = Buffer.from(`${o.consumerKey}:${o.consumerSecret}`).toString("base64");
      if (url.searchParams.get("grant_type") !== "client_credentials" || req.headers.authorization !== `Basic ${basic}`) {
        return bad(res, 400, "400.008.01", "Invalid Authentication passed");
      }
      const token = crypto.randomBytes(14).toString("base64url");
      live.add(token);
      state.tokensIssued += 1;
      return send(res, 200, { access_token: token, expires_in: o.expiresIn });
    }
    if (req.method === "POST" && url.pathname === "/mpesa/stkpush/v1/processrequest") {
      const text = await readBody(req);
      if (o.push === "hang") {
        hanging.add(res);
        return;
      }
      if (o.push === "500") return bad(res, 500, "500.001.1001", "Unable to lock subscriber, a transaction is already in process for the current subscriber");
      const body = signedCall(req, res, text);
      if (!body) return;
      const type = body.TransactionType;
      if (type !== "CustomerPayBillOnline" && type !== "CustomerBuyGoodsOnline") return bad(res, 400, "400.002.02", "Bad Request - Invalid TransactionType");
      if (!Number.isInteger(body.Amount) || body.Amount < 1) return bad(res, 400, "400.002.02", "Bad Request - Invalid Amount");
      if (!/^254[17]\d{8}$/.test(String(body.PartyA)) || String(body.PhoneNumber) !== String(body.PartyA)) return bad(res, 400, "400.002.02", "Bad Request - Invalid PhoneNumber");
      if (o.refusePhone && String(body.PartyA) === o.refusePhone) return bad(res, 400, "400.002.02", "Bad Request - Invalid PhoneNumber");
      if (String(body.PartyB) !== String(body.BusinessShortCode)) return bad(res, 400, "400.002.02", "Bad Request - Invalid PartyB");
      if (!/^https?:\/\//.test(String(body.CallBackURL)) || /m-?pesa|safaricom|exe|cmd|sql|query/i.test(String(body.CallBackURL))) return bad(res, 400, "400.002.02", "Bad Request - Invalid CallBackURL");
      if (typeof body.AccountReference !== "string" || !body.AccountReference || body.AccountReference.length > 12) return bad(res, 400, "400.002.02", "Bad Request - Invalid AccountReference");
      if (typeof body.TransactionDesc !== "string" || body.TransactionDesc.length > 13) return bad(res, 400, "400.002.02", "Bad Request - Invalid TransactionDesc");
      const p = {
        merchantRequestId: `${crypto.randomInt(10000, 99999)}-${crypto.randomInt(1e7, 9e7)}-1`,
        checkoutRequestId: `ws_CO_${nairobiStamp()}${crypto.randomInt(1e9, 9e9)}`,
        phone: String(body.PartyA),
        amount: body.Amount,
        accountReference: body.AccountReference,
        description: body.TransactionDesc,
        shortcode: String(body.BusinessShortCode),
        type,
        callbackUrl: body.CallBackURL,
        state: "pending",
        at: new Date().toISOString(),
      };
      state.pushes.push(p);
      if (o.log) console.log(`[daraja-fake] prompt ${p.checkoutRequestId}: KES ${p.amount} to ${p.shortcode} for ${p.accountReference} on ${p.phone}`);
      if (o.outcome) setTimeout(() => void answer(p.checkoutRequestId, o.outcome).catch(() => {}), o.autoAfterMs);
      if (o.pushDelayMs > 0) {
        hanging.add(res);
        await new Promise((r) => setTimeout(r, o.pushDelayMs));
        hanging.delete(res);
        if (res.destroyed) return;
      }
      return send(res, 200, {
        MerchantRequestID: p.merchantRequestId,
        CheckoutRequestID: p.checkoutRequestId,
        ResponseCode: "0",
        ResponseDescription: "Success. Request accepted for processing",
        CustomerMessage: "Success. Request accepted for processing",
      });
    }
    if (req.method === "POST" && url.pathname === "/mpesa/stkpushquery/v1/query") {
      if (o.query === "down") return req.socket.destroy();
      const body = signedCall(req, res, await readBody(req));
      if (!body) return;
      state.queries += 1;
      const p = state.pushes.find((x) => x.checkoutRequestId === body.CheckoutRequestID);
      if (!p) return bad(res, 400, "400.002.02", "Bad Request - Invalid CheckoutRequestID");
      if (p.state === "pending") return send(res, 500, { requestId: crypto.randomUUID(), errorCode: "500.001.1001", errorMessage: "The transaction is being processed" });
      return send(res, 200, {
        ResponseCode: "0",
        ResponseDescription: "The service request has been accepted successsfully",
        MerchantRequestID: p.merchantRequestId,
        CheckoutRequestID: p.checkoutRequestId,
        ResultCode: String(p.resultCode),
        ResultDesc: DESCRIPTIONS[p.resultCode] ?? "Failed",
      });
    }
    // The test's commands and the phone page.
    if (req.method === "GET" && url.pathname === "/fake/state") return send(res, 200, state);
    if (req.method === "POST" && url.pathname === "/fake/config") {
      const body = JSON.parse((await readBody(req)) || "{}");
      for (const k of ["push", "outcome", "autoAfterMs", "resultCodeAs", "pushDelayMs", "query"]) if (k in body) o[k] = body[k];
      return send(res, 200, { ok: true });
    }
    if (req.method === "POST" && url.pathname === "/fake/answer") {
      const body = JSON.parse((await readBody(req)) || "{}");
      try {
        const p = await answer(body.checkoutRequestId, body.outcome ?? "paid");
        return send(res, 200, { ok: true, prompt: p });
      } catch (e) {
        return send(res, 404, { ok: false, error: e.message });
      }
    }
    if (req.method === "POST" && url.pathname.startsWith("/phone/")) {
      const form = new URLSearchParams(await readBody(req));
      const id = decodeURIComponent(url.pathname.slice("/phone/".length));
      await answer(id, form.get("action") === "cancel" ? 1032 : "paid").catch(() => {});
      res.writeHead(303, { Location: "/" });
      return res.end();
    }
    if (req.method === "GET" && url.pathname === "/") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(phonePage(state.pushes));
    }
    return bad(res, 404, "404.001.01", "Resource not found");
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) send(res, 500, { errorMessage: String(e?.message ?? e) });
    });
  });
  await new Promise((resolve) => server.listen(o.port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    state,
    options: o,
    consumerKey: o.consumerKey,
    consumerSecret: o.consumerSecret,
    passkey: o.passkey,
    answer,
    resend,
    /** The newest prompt (or the one for this account reference). */
    /** @param {string} [accountReference] */
    latest: (accountReference) => state.pushes.findLast((p) => !accountReference || p.accountReference === accountReference),
    set(changes) {
      Object.assign(o, changes);
    },
    /** Every token issued so far stops working (expired or revoked at Safaricom's end). */
    expireTokens() {
      live.clear();
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

function phonePage(pushes) {
  const pending = pushes.filter((p) => p.state === "pending");
  const done = pushes.filter((p) => p.state !== "pending").slice(-10).reverse();
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta http-equiv="refresh" content="3"><title>Phone (fake M-Pesa)</title>
<style>body{font:16px system-ui;max-width:26rem;margin:1rem auto;padding:0 1rem}.prompt{border:2px solid #0a7d32;border-radius:8px;padding:1rem;margin:1rem 0}button{font:inherit;padding:.5rem 1rem;margin-right:.5rem}</style></head><body>
<h1>Phone</h1><p>The fake Daraja's PIN prompts. This page refreshes itself.</p>
${pending.length === 0 ? "<p>No prompt waiting.</p>" : ""}
${pending
  .map(
    (p) => `<div class="prompt"><p>Do you want to pay KES ${esc(p.amount)} to ${esc(p.shortcode)}, account no. ${esc(p.accountReference)}? Enter M-PESA PIN.</p><p>Phone ${esc(p.phone)}</p>
<form method="post" action="/phone/${encodeURIComponent(p.checkoutRequestId)}"><button name="action" value="pin">Enter PIN</button><button name="action" value="cancel">Cancel</button></form></div>`,
  )
  .join("")}
${done.length ? `<h2>Answered</h2><ul>${done.map((p) => `<li>${esc(p.accountReference)}: ${p.state === "paid" ? `paid, ${esc(p.receipt)}` : `result ${esc(p.resultCode)}`}</li>`).join("")}</ul>` : ""}
</body></html>`;
}

// `npm run daraja:fake`: a fake on DARAJA_FAKE_PORT (default 8089) with the phone page at /.
if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.DARAJA_FAKE_PORT ?? 8089);
  const fake = await startDarajaFake({
    port,
    log: true,
    ...(process.env.DARAJA_CONSUMER_KEY ? { consumerKey: process.env.DARAJA_CONSUMER_KEY } : {}),
    ...(process.env.DARAJA_CONSUMER_SECRET ? { consumerSecret: process.env.DARAJA_CONSUMER_SECRET } : {}),
    ...(process.env.DARAJA_PASSKEY ? { passkey: process.env.DARAJA_PASSKEY } : {}),
  });
  console.log(`Fake Daraja on ${fake.url} (the phone: open ${fake.url}/ in a browser).
Start the site with:
  DARAJA_BASE_URL=${fake.url} DARAJA_CONSUMER_KEY=${fake.consumerKey} DARAJA_CONSUMER_SECRET=${fake.consumerSecret} DARAJA_PASSKEY=${fake.passkey} MPESA_CALLBACK_SECRET=<16+ letters/digits> npm start`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
