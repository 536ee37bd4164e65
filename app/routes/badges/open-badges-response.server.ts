/**
 * How the Open Badges documents are sent: JSON-LD (or plain JSON to a client that asks only for
 * that), cacheable, and open to GETs from any site (verifiers fetch them from theirs).
 */
const OPEN = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS", Vary: "Accept" };

const typeFor = (request: Request) => {
  const accept = request.headers.get("accept") ?? "";
  return accept.includes("application/json") && !accept.includes("application/ld+json") ? "application/json" : "application/ld+json";
};

export function openBadgesDocument(request: Request, body: unknown, maxAge = 300) {
  return new Response(JSON.stringify(body, null, 2), {
    headers: { "Content-Type": `${typeFor(request)}; charset=utf-8`, "Cache-Control": `public, max-age=${maxAge}`, ...OPEN },
  });
}

export function openBadgesNotFound(message: string) {
  return new Response(JSON.stringify({ ok: false, error: message }), {
    status: 404,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=60", ...OPEN },
  });
}

/** The `{id}.json` (or `.jwt`) part of an address, or null. */
export const idOfFile = (file: string | undefined, ext: "json" | "jwt") => {
  const m = new RegExp(`^(.{1,48})\\.${ext}$`).exec(file ?? "");
  return m ? m[1]! : null;
};
