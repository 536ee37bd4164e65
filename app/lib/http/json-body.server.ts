import { JsonShapeScanner, JSON_TOO_DEEP, JSON_TOO_MANY, parseMeasured } from "../core/bounded-json";
import { HttpError } from "../core/http-error";

/**
 * A JSON request body, measured as it arrives (app/lib/core/bounded-json.ts): a body nested too deeply
 * or holding too many values is refused (400) at the piece that shows it, and the rest of it is
 * never read; one larger than `maxBytes` is refused (413) the same way. What passes is parsed.
 * Answers undefined for an empty body.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new HttpError(413, "Request body is too large.");
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const decoder = new TextDecoder("utf-8");
  const scanner = new JsonShapeScanner();
  const pieces: string[] = [];
  let size = 0;
  const refuse = async (status: number, message: string) => {
    await reader.cancel().catch(() => {});
    return new HttpError(status, message);
  };
  for (;;) {
    const { done, value } = await reader.read();
    const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
    if (!done) {
      size += value.byteLength;
      if (size > maxBytes) throw await refuse(413, "Request body is too large.");
    }
    const problem = scanner.feed(text);
    if (problem) throw await refuse(400, problem === "too-deep" ? JSON_TOO_DEEP : JSON_TOO_MANY);
    pieces.push(text);
    if (done) break;
  }
  const text = pieces.join("");
  if (text.trim() === "") return undefined;
  try {
    return await parseMeasured(text);
  } catch {
    throw new HttpError(400, "Request body must be valid JSON.");
  }
}
