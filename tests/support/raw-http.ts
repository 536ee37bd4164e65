import net from "node:net";

export type RawAnswer = { status: number | null; head: string; body: string; closedWithoutAnswer: boolean };

/**
 * Sends bytes exactly as given over a plain TCP socket (no client library tidying the request
 * line or headers) and reads the answer until the server closes or `timeoutMs` passes.
 */
export function rawRequest(port: number, bytes: string | Buffer, timeoutMs = 20_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString("latin1");
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      const split = text.indexOf("\r\n\r\n");
      resolve({
        status: m ? Number(m[1]) : null,
        head: split >= 0 ? text.slice(0, split) : text,
        body: split >= 0 ? text.slice(split + 4) : "",
        closedWithoutAnswer: text.length === 0,
      });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on("data", (c) => chunks.push(c));
    socket.on("end", finish);
    socket.on("close", finish);
    socket.on("error", finish);
    socket.on("connect", () => socket.write(bytes));
  });
}

/** A GET with the given request target and headers, closing after the answer. */
export const rawGet = (port: number, target: string, headers: string[] = ["Host: 127.0.0.1"]) =>
  rawRequest(port, `GET ${target} HTTP/1.1\r\n${[...headers, "Connection: close"].join("\r\n")}\r\n\r\n`);
