// A real SMTP receiver for the browser tests: an smtp-server that parses every message with
// mailparser and keeps it in memory, plus a small HTTP API the tests poll.
//   MAIL_CATCHER_SMTP_PORT (default 4325): SMTP on 127.0.0.1, no auth needed, no STARTTLS.
//   MAIL_CATCHER_HTTP_PORT (default 4326): GET /messages (JSON array), GET /health.
import http from "node:http";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

const host = "127.0.0.1";
const smtpPort = Number(process.env.MAIL_CATCHER_SMTP_PORT ?? 4325);
const httpPort = Number(process.env.MAIL_CATCHER_HTTP_PORT ?? 4326);

/** @type {Array<Record<string, unknown>>} */
const messages = [];
let nextId = 1;

const addresses = (field) => {
  if (!field) return [];
  const list = Array.isArray(field) ? field : [field];
  return list.flatMap((a) => a.value.map((v) => (v.address ?? "").toLowerCase())).filter(Boolean);
};

/** The raw (unfolded) value of each header, keyed by its lower-case name. */
function headerObject(parsed) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const { key, line } of parsed.headerLines) {
    const value = line.slice(line.indexOf(":") + 1).replace(/\r?\n[ \t]+/g, " ").trim();
    out[key] = key in out ? `${out[key]}, ${value}` : value;
  }
  return out;
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  banner: "e2e mail catcher",
  size: 25 * 1024 * 1024,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((parsed) => {
        messages.push({
          id: nextId++,
          receivedAt: new Date().toISOString(),
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          },
          to: addresses(parsed.to),
          from: parsed.from?.text ?? "",
          replyTo: addresses(parsed.replyTo),
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: parsed.html || "",
          headers: headerObject(parsed),
          attachments: parsed.attachments.map((a) => ({
            filename: a.filename ?? "",
            contentType: a.contentType,
            size: a.size,
          })),
        });
        callback();
      })
      .catch((err) => callback(err));
  },
});
smtp.on("error", (err) => console.error("[mail-catcher] smtp error", err.message));

const api = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", `http://${host}`);
  if (req.method === "GET" && url.pathname === "/health") {
    res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    return;
  }
  if (req.method === "GET" && url.pathname === "/messages") {
    res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
    res.end(JSON.stringify(messages));
    return;
  }
  res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
});

await new Promise((resolve) => smtp.listen(smtpPort, host, resolve));
await new Promise((resolve) => api.listen(httpPort, host, resolve));
console.log(`[mail-catcher] smtp://${host}:${smtpPort}, http://${host}:${httpPort}/messages`);

const stop = () => {
  api.close();
  smtp.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
