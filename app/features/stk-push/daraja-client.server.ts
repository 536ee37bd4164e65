import type { StkConfig } from "~/lib/server/daraja-env.server";

/**
 * Daraja's M-Pesa Express calls: the OAuth token (one, reused until shortly before it expires,
 * fetched once however many pushes ask at the same moment), the push and the query. Every call
 * is cut after 15 s: no request waits on Safaricom longer than that.
 */
export class DarajaUnavailable extends Error {
  /**
   * True when the request may have reached Daraja and been acted on (no answer in time, the
   * answer cut off, the connection dropped after sending): a push may be on the phone.
   * False when Daraja answered an error, or could not be connected to at all.
   */
  constructor(
    message: string,
    readonly maybeActed = false,
  ) {
    super(message);
  }
}

/** Connection errors that mean the request never left: nothing was acted on. */
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

let timeoutMs = 15_000;
/** Tests shorten the 15 s cut-off. */
export function setDarajaTimeoutForTests(ms: number | null) {
  timeoutMs = ms ?? 15_000;
}

/** How long a push may wait for Daraja's answer. */
export const pushTimeLimitMs = () => timeoutMs;

type Token = { value: string; expiresAt: number };
const tokens = new Map<string, Token>();
const fetching = new Map<string, Promise<Token>>();

export function forgetDarajaTokensForTests() {
  tokens.clear();
  fetching.clear();
}

/** 'YYYYMMDDHHmmss' in Nairobi (UTC+3 all year), as the push and query want it. */
export function darajaTimestamp(at = new Date()): string {
  return new Date(at.getTime() + 3 * 3600_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/** base64(BusinessShortCode + Passkey + Timestamp). */
export function darajaPassword(shortcode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortcode}${passkey}${timestamp}`).toString("base64");
}

async function call(url: string, init: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
    const why = timedOut ? `no answer within ${Math.round(timeoutMs / 1000)} s` : (e as Error).message;
    const code = String((e as { cause?: { code?: unknown } }).cause?.code ?? "");
    throw new DarajaUnavailable(`Daraja could not be reached (${why}${code ? `, ${code}` : ""})`, timedOut || !NEVER_SENT.has(code));
  }
  let text = "";
  try {
    text = await res.text();
  } catch (e) {
    throw new DarajaUnavailable(`Daraja's answer was cut off (${(e as Error).message})`, true);
  }
  let body: unknown = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = {};
  }
  return { status: res.status, body: typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {} };
}

async function token(c: StkConfig): Promise<string> {
  const key = `${c.baseUrl} ${c.consumerKey}`;
  const held = tokens.get(key);
  if (held && held.expiresAt > Date.now()) return held.value;
  let pending = fetching.get(key);
  if (!pending) {
    pending = (async () => {
      const basic = Buffer.from(`${c.consumerKey}:${c.consumerSecret}`).toString("base64");
      const { status, body } = await call(`${c.baseUrl}/oauth/v1/generate?grant_type=client_credentials`, { headers: { Authorization: `Basic ${basic}` } });
      const value = typeof body.access_token === "string" ? body.access_token : "";
      if (status !== 200 || !value) throw new DarajaUnavailable(`Daraja refused the token (HTTP ${status}${body.errorMessage ? `: ${String(body.errorMessage)}` : ""})`);
      const seconds = Number(body.expires_in);
      // A minute early, so a token is never sent as it expires.
      const t = { value, expiresAt: Date.now() + Math.max(30, (Number.isFinite(seconds) ? seconds : 3599) - 60) * 1000 };
      tokens.set(key, t);
      return t;
    })().finally(() => fetching.delete(key));
    fetching.set(key, pending);
  }
  return (await pending).value;
}

/**
 * Daraja's answer to a token it no longer accepts (expired or revoked): HTTP 404 with errorCode
 * 404.001.03 'Invalid Access Token', or a 401.
 */
export const isInvalidToken = (status: number, body: Record<string, unknown>) =>
  status === 401 || String(body.errorCode ?? "") === "404.001.03" || (status === 404 && /invalid access token/i.test(String(body.errorMessage ?? "")));

/** A call with the token; a token Daraja no longer accepts is dropped and a new one fetched, once. */
async function authorised(c: StkConfig, path: string, payload: Record<string, unknown>) {
  for (let attempt = 0; ; attempt++) {
    const bearer = await token(c);
    const answer = await call(`${c.baseUrl}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
      body: JSON.stringify(payload),
    });
    if (isInvalidToken(answer.status, answer.body) && attempt === 0) {
      tokens.delete(`${c.baseUrl} ${c.consumerKey}`);
      continue;
    }
    return answer;
  }
}

/** The fields that sign a push and a query: the shortcode, and the password made with the timestamp sent beside it. */
function signature(c: StkConfig, at: Date) {
  const timestamp = darajaTimestamp(at);
  return { BusinessShortCode: c.shortcode, Password: darajaPassword(c.shortcode, c.passkey, timestamp), Timestamp: timestamp };
}

export type PushRequest = { phone: string; amount: number; accountReference: string; description: string };
export type PushAnswer =
  | { sent: true; merchantRequestId: string; checkoutRequestId: string; customerMessage: string }
  | { sent: false; code: string; description: string };

/** Asks Safaricom to show the PIN prompt. Throws DarajaUnavailable when Daraja cannot be reached or answers an error page. */
export async function stkPush(c: StkConfig, p: PushRequest, at = new Date()): Promise<PushAnswer> {
  const { status, body } = await authorised(c, "/mpesa/stkpush/v1/processrequest", {
    ...signature(c, at),
    TransactionType: c.type === "till" ? "CustomerBuyGoodsOnline" : "CustomerPayBillOnline",
    Amount: Math.round(p.amount),
    PartyA: p.phone,
    PartyB: c.shortcode,
    PhoneNumber: p.phone,
    CallBackURL: c.callbackUrl,
    AccountReference: p.accountReference.slice(0, 12),
    TransactionDesc: p.description.slice(0, 13),
  });
  const code = String(body.ResponseCode ?? "");
  if (status === 200 && code === "0" && typeof body.CheckoutRequestID === "string" && body.CheckoutRequestID) {
    return {
      sent: true,
      merchantRequestId: String(body.MerchantRequestID ?? ""),
      checkoutRequestId: body.CheckoutRequestID,
      customerMessage: String(body.CustomerMessage ?? ""),
    };
  }
  if (status >= 500 || status === 403 || status === 429 || isInvalidToken(status, body)) {
    throw new DarajaUnavailable(`Daraja answered HTTP ${status}${body.errorMessage ? `: ${String(body.errorMessage)}` : ""}`);
  }
  return { sent: false, code: String(body.errorCode ?? body.ResponseCode ?? status), description: String(body.errorMessage ?? body.ResponseDescription ?? `HTTP ${status}`) };
}

export type QueryAnswer = { kind: "result"; resultCode: string; resultDesc: string } | { kind: "pending"; description: string };

/** What became of a push (no receipt number: that comes by callback, C2B or statement). */
export async function stkQuery(c: StkConfig, checkoutRequestId: string, at = new Date()): Promise<QueryAnswer> {
  const { status, body } = await authorised(c, "/mpesa/stkpushquery/v1/query", {
    ...signature(c, at),
    CheckoutRequestID: checkoutRequestId,
  });
  const resultCode = body.ResultCode;
  if (status === 200 && (typeof resultCode === "string" || typeof resultCode === "number") && String(resultCode).trim() !== "") {
    return { kind: "result", resultCode: String(resultCode).trim(), resultDesc: String(body.ResultDesc ?? "") };
  }
  const description = String(body.errorMessage ?? body.ResponseDescription ?? `HTTP ${status}`);
  if (isInvalidToken(status, body) || status === 403 || status === 429) throw new DarajaUnavailable(`Daraja answered HTTP ${status}: ${description}`);
  if (status >= 500 && !/being processed/i.test(description)) throw new DarajaUnavailable(`Daraja answered HTTP ${status}: ${description}`);
  // 'The transaction is being processed': the supporter has not answered yet.
  return { kind: "pending", description };
}
