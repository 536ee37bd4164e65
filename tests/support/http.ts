import { currentTestDb } from "./reset";
export const ORIGIN = "http://site.test";
export const VISITOR = "10.0.0.1";

type Headers_ = Record<string, string>;

export function get(path: string, headers: Headers_ = {}) {
  return new Request(ORIGIN + path, { method: "GET", headers });
}

/** A form post as a browser sends it from a page of this site (with its Origin). */
export function formPost(path: string, fields: Record<string, string>, headers: Headers_ = {}) {
  return new Request(ORIGIN + path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", Origin: ORIGIN, ...headers },
  });
}

export function jsonPost(path: string, body: unknown, headers: Headers_ = {}) {
  return new Request(ORIGIN + path, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json", ...headers },
  });
}

/**
 * The arguments React Router hands a loader or action. Route modules type these from
 * generated files; this is the one place tests step around that.
 */
export function args(request: Request, clientAddress: string = VISITOR): any {
  return { request, url: new URL(request.url), context: testContext(clientAddress), params: {} };
}

/** The load context the server hands every route: the client's address and the database. */
export function testContext(clientAddress: string = VISITOR) {
  return {
    clientAddress,
    // The database of the test's freshApp(), as the server hands routes its one database.
    get db() {
      return currentTestDb();
    },
  };
}

/** Runs a loader or action that is expected to throw a Response (a redirect), and returns it. */
export async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    const value = await promise;
    throw new ExpectedThrow(value);
  } catch (e) {
    if (e instanceof ExpectedThrow) throw new Error(`expected a thrown Response, got ${JSON.stringify(e.value)}`);
    if (e instanceof Response) return e;
    throw e;
  }
}

class ExpectedThrow extends Error {
  constructor(public value: unknown) {
    super("no throw");
  }
}

type DataWithInit<D> = { type: string; data: D; init: ResponseInit | null };
type Unwrapped<V> = V extends DataWithInit<infer D> ? D : V;

function isDataWithInit(v: unknown): v is DataWithInit<unknown> {
  return typeof v === "object" && v !== null && (v as { type?: unknown }).type === "DataWithResponseInit";
}

/** A loader/action result as the browser would get it: status, headers and data. */
export function reply<V>(value: V): { status: number; headers: Headers; data: Unwrapped<V> } {
  if (value instanceof Response) throw new Error(`expected data, got a Response with status ${value.status}`);
  if (isDataWithInit(value)) {
    return {
      status: value.init?.status ?? 200,
      headers: new Headers(value.init?.headers),
      data: value.data as Unwrapped<V>,
    };
  }
  return { status: 200, headers: new Headers(), data: value as Unwrapped<V> };
}

export type ApiError = { ok: false; error: string };

/** Reads a JSON API answer, checking it is JSON whatever the status. */
export async function readJson<T = Record<string, unknown>>(res: Response) {
  const type = res.headers.get("content-type") ?? "";
  if (!type.startsWith("application/json")) {
    throw new Error(`expected application/json, got "${type}" (status ${res.status})`);
  }
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}
