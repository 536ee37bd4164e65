import net, { type AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * Mail servers in trouble, on 127.0.0.1 port 0, speaking real SMTP: one that refuses some
 * recipients for good (550 to RCPT TO, 'no such mailbox') and accepts the rest, and one that
 * takes each connection and drops it at once (a server going down, a firewall).
 */
export type RefusingSmtp = { url: string; rcpt: string[]; accepted: string[]; close(): Promise<void> };

export function startRefusingSmtp(refused: (address: string) => boolean): Promise<RefusingSmtp> {
  const rcpt: string[] = [];
  const accepted: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 100,
    disableReverseLookup: true,
    onRcptTo(address, _session, callback) {
      rcpt.push(address.address);
      if (!refused(address.address)) return callback();
      const no = Object.assign(new Error("5.1.1 No such mailbox here"), { responseCode: 550 });
      callback(no);
    },
    onData(stream, session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        accepted.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.server.address() as AddressInfo;
      resolve({ url: `smtp://127.0.0.1:${port}`, rcpt, accepted, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}

export type DroppingSmtp = { url: string; connections: () => number; close(): Promise<void> };

export function startDroppingSmtp(): Promise<DroppingSmtp> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `smtp://127.0.0.1:${port}`, connections: () => connections, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
