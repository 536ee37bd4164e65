/**
 * A local path to send someone back to (after signing in, after switching Lite mode); anything
 * else falls back to "/". Browsers drop tabs and line breaks from a Location and read "\" as "/",
 * so "/\t/evil.example" would leave the site: only printable ASCII (the form a URL's path and
 * query take), no backslash, and nothing that resolves to another origin.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== "string" || value.length > 300) return "/";
  if (!/^\/[\x21-\x5b\x5d-\x7e]*$/.test(value) || value.startsWith("//")) return "/";
  const base = "http://return.invalid";
  try {
    return new URL(value, base).origin === base ? value : "/";
  } catch {
    return "/";
  }
}
