/**
 * The cookie names in a Cookie header, read exactly as the `cookie` package reads them (React
 * Router's `createCookie`, which reads the staff session): pairs split at ";", the name is what
 * comes before the pair's first "=", with spaces and tabs around it trimmed, and a pair without
 * "=" is no cookie. So `__admin =…` names `__admin`, as the session reader sees it. Whoever asks
 * "does this request carry cookie X" must ask it this way (app/lib/http/page-cache.server.ts), or a
 * request the session reader treats as signed in could be treated as anonymous.
 */
export function cookieNames(header: string): Set<string> {
  const names = new Set<string>();
  const len = header.length;
  if (len < 2) return names;
  let index = 0;
  do {
    const eq = header.indexOf("=", index);
    if (eq === -1) break;
    let end = header.indexOf(";", index);
    if (end === -1) end = len;
    if (eq > end) {
      // This pair has no "=": go on from the pair the "=" belongs to.
      index = header.lastIndexOf(";", eq - 1) + 1;
      continue;
    }
    names.add(trimmed(header, index, eq));
    index = end + 1;
  } while (index < len);
  return names;
}

function trimmed(text: string, start: number, end: number) {
  while (start < end && (text.charCodeAt(start) === 0x20 || text.charCodeAt(start) === 0x09)) start += 1;
  while (end > start && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end -= 1;
  return text.slice(start, end);
}
