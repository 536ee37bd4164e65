import net, { type AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  /** The SMTP envelope: who the server was told the message is from and for. */
  envelope: { from: string; to: string[] };
  mail: ParsedMail;
};

export type SmtpReceiver = {
  port: number;
  url: string;
  messages: ReceivedMail[];
  clear(): void;
  close(): Promise<void>;
};

/**
 * A real SMTP receiver on 127.0.0.1 (port 0 unless a port is given). Each message is parsed
 * with mailparser before the server answers 250, so when the sender's call resolves the
 * message is already in `messages`.
 */
export function startSmtpReceiver(port = 0): Promise<SmtpReceiver> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 100,
    disableReverseLookup: true,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const env = session.envelope;
          messages.push({
            envelope: {
              from: env.mailFrom ? env.mailFrom.address : "",
              to: env.rcptTo.map((r) => r.address),
            },
            mail,
          });
          callback();
        })
        .catch((e: unknown) => callback(e instanceof Error ? e : new Error(String(e))));
    },
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const actual = (server.server.address() as AddressInfo).port;
      resolve({
        port: actual,
        url: `smtp://127.0.0.1:${actual}`,
        messages,
        clear: () => void messages.splice(0, messages.length),
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/** A port on 127.0.0.1 that nothing listens on (taken from the OS, then released). */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The value of a header as mailparser hands it back, as text. */
export function headerText(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase());
  if (!line) return undefined;
  return line.line.slice(line.line.indexOf(":") + 1).replace(/\r?\n[ \t]+/g, " ").trim();
}
