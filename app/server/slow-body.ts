import type http from "node:http";
import { plainAnswer } from "./edge";

/**
 * A request body that trickles in (a byte every few seconds) holds what it was admitted with,
 * one of the few slots for large bodies included, for as long as the sender likes: the request
 * timeout is minutes long, for slow phones. A body that brings less than BODY_MIN_BYTES in any
 * BODY_WINDOW_MS is cut: 408, and the connection closed. A phone on 2G sends ~10 kB a second.
 * Only the socket's byte count is looked at: nothing of the body is read here.
 */
export const BODY_WINDOW_MS = 10_000;
export const BODY_MIN_BYTES = 1024;
export const BODY_TOO_SLOW = "The request body arrived too slowly. Please try again on a better connection.";

export function cutSlowBodies(req: http.IncomingMessage, res: http.ServerResponse, windowMs = BODY_WINDOW_MS) {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (!(declared > 0) && !req.headers["transfer-encoding"]) return;
  const socket = req.socket;
  let seen = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed || res.writableFinished) return clearInterval(timer);
    const now = socket.bytesRead;
    // Bytes already here and not yet taken by the site (the request waits its turn): the wait
    // is the site's, not the sender's.
    if (now - seen >= BODY_MIN_BYTES || req.readableLength > 0) {
      seen = now;
      return;
    }
    clearInterval(timer);
    if (res.headersSent) return socket.destroy();
    res.once("finish", () => socket.destroy());
    plainAnswer(res, 408, `${BODY_TOO_SLOW}\n`);
  }, windowMs);
  timer.unref();
  res.once("close", () => clearInterval(timer));
}
