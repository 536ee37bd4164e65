import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { env } from "../server/env.server";
import { HttpError } from "./http.server";
import { FORM_TOO_LARGE, openUploadedFile, readStreamedForm, UploadedFile } from "./multipart.server";
import { FORM_UNREADABLE } from "../core/forms";

const BOUNDARY = "----formboundary7MA4YWxkTrZu0gW";

type Part = { name: string; value: string } | { name: string; filename: string; type: string; bytes: Buffer };

/** A multipart body as a browser sends it. */
function body(parts: Part[], boundary = BOUNDARY) {
  const out: Buffer[] = [];
  for (const p of parts) {
    const head =
      "value" in p
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`;
    out.push(Buffer.from(head), "value" in p ? Buffer.from(p.value) : p.bytes, Buffer.from("\r\n"));
  }
  out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}

/** A request whose body arrives in pieces of `chunk` bytes (a slow phone, a boundary split across reads). */
function request(bytes: Buffer, chunk = 7, type = `multipart/form-data; boundary=${BOUNDARY}`) {
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + chunk)));
      at += chunk;
    },
  });
  // @ts-expect-error Node's fetch needs `duplex` for a streamed body.
  return new Request("http://site.test/event", { method: "POST", body: stream, duplex: "half", headers: { "content-type": type } });
}

const uploads = () => path.join(env().dataDir, "uploads");
const leftovers = () => (fs.existsSync(uploads()) ? fs.readdirSync(uploads()) : []);

async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (e) {
    if (e instanceof HttpError) return { status: e.status, message: e.message };
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("readStreamedForm", () => {
  it("keeps the text fields in order and writes an allowed file to a private temporary file, byte for byte", async () => {
    const photo = crypto.randomBytes(20_003);
    const bytes = body([
      { name: "name", value: "Amani Wanjiru" },
      { name: "portrait", filename: "IMG_0001.jpg", type: "image/jpeg", bytes: photo },
      { name: "notes", value: "Sent after the file: ü, \r\n and --dashes" },
    ]);
    for (const chunk of [1, 7, 4096, 65_536]) {
      const { form, dispose } = await readStreamedForm(request(bytes, chunk), { maxBytes: 1_000_000, files: { portrait: 50_000 } });
      expect(form.get("name")).toBe("Amani Wanjiru");
      expect(form.get("notes")).toBe("Sent after the file: ü, \r\n and --dashes");
      const file = form.get("portrait");
      expect(file).toBeInstanceOf(UploadedFile);
      const upload = file as UploadedFile;
      expect({ name: upload.name, type: upload.type, size: upload.size, sentBytes: upload.sentBytes, overLimit: upload.overLimit }).toEqual({
        name: "IMG_0001.jpg",
        type: "image/jpeg",
        size: photo.length,
        sentBytes: photo.length,
        overLimit: false,
      });
      expect(fs.readFileSync(upload.path!).equals(photo)).toBe(true);
      expect(Buffer.from(await upload.arrayBuffer()).equals(photo)).toBe(true);
      expect(fs.statSync(upload.path!).mode & 0o777).toBe(0o600);
      await dispose();
      expect(fs.existsSync(upload.path!)).toBe(false);
    }
  });

  it("a file over its cap is counted and dropped as it arrives; the fields after it still arrive", async () => {
    const bytes = body([
      { name: "name", value: "Big Photo" },
      { name: "portrait", filename: "huge.jpg", type: "image/jpeg", bytes: crypto.randomBytes(300_000) },
      { name: "email", value: "big@example.com" },
    ]);
    const { form, dispose } = await readStreamedForm(request(bytes, 16_384), { maxBytes: 1_000_000, files: { portrait: 100_000 } });
    const upload = form.get("portrait") as UploadedFile;
    expect({ size: upload.size, sentBytes: upload.sentBytes, overLimit: upload.overLimit, path: upload.path }).toEqual({
      size: 0,
      sentBytes: 300_000,
      overLimit: true,
      path: null,
    });
    expect(form.get("email")).toBe("big@example.com");
    expect(leftovers()).toEqual([]);
    await dispose();
  });

  it("an empty file input is an empty file; files in fields that take none are dropped", async () => {
    const bytes = body([
      { name: "portrait", filename: "", type: "application/octet-stream", bytes: Buffer.alloc(0) },
      { name: "other", filename: "x.bin", type: "application/octet-stream", bytes: Buffer.alloc(5000, 1) },
      { name: "intent", value: "order" },
    ]);
    const { form } = await readStreamedForm(request(bytes, 100), { maxBytes: 100_000, files: { portrait: 10_000 } });
    expect((form.get("portrait") as UploadedFile).size).toBe(0);
    expect((form.get("portrait") as UploadedFile).path).toBeNull();
    expect(form.get("other")).toBeNull();
    expect(form.get("intent")).toBe("order");
    expect(leftovers()).toEqual([]);
  });

  it("reads a quoted boundary and skips a preamble and an epilogue", async () => {
    const bytes = Buffer.concat([Buffer.from("preamble\r\n"), body([{ name: "a", value: "1" }], "b o"), Buffer.from("epilogue")]);
    const { form } = await readStreamedForm(request(bytes, 3, 'multipart/form-data; boundary="b o"'), { maxBytes: 10_000, files: {} });
    expect([...form.entries()]).toEqual([["a", "1"]]);
  });

  it("a body over the cap is a 413, a cut-off body a 400; no temporary file is left either way", async () => {
    const big = body([{ name: "portrait", filename: "a.jpg", type: "image/jpeg", bytes: crypto.randomBytes(50_000) }]);
    expect(await refusal(readStreamedForm(request(big, 4096), { maxBytes: 20_000, files: { portrait: 100_000 } }))).toEqual({
      status: 413,
      message: FORM_TOO_LARGE,
    });
    const cut = big.subarray(0, big.length - 200);
    expect(await refusal(readStreamedForm(request(cut, 4096), { maxBytes: 100_000, files: { portrait: 100_000 } }))).toEqual({
      status: 400,
      message: FORM_UNREADABLE,
    });
    expect(await refusal(readStreamedForm(request(Buffer.from("name=x"), 10, "multipart/form-data"), { maxBytes: 100, files: {} }))).toEqual({
      status: 400,
      message: FORM_UNREADABLE,
    });
    const field = body([{ name: "notes", value: "x".repeat(70_000) }]);
    expect((await refusal(readStreamedForm(request(field, 8192), { maxBytes: 1_000_000, files: {} }))).status).toBe(413);
    expect(leftovers()).toEqual([]);
  });
});

/** A multipart POST whose body arrives in the given pieces; `pulled` counts the bytes read. */
function post(pieces: Buffer[], type: string) {
  let pulled = 0;
  let cancelled = false;
  let i = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const piece = pieces[i++];
        if (!piece) return controller.close();
        pulled += piece.length;
        controller.enqueue(new Uint8Array(piece));
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  // @ts-expect-error Node's fetch needs duplex for a streamed body.
  const request = new Request("http://site.test/badges/verify", { method: "POST", body, headers: { "content-type": type }, duplex: "half" });
  return { request, pulled: () => pulled, cancelled: () => cancelled };
}

function multipart(boundary: string, parts: { name: string; filename?: string; type?: string; content: Buffer | string }[]) {
  const out: Buffer[] = [Buffer.from("preamble to ignore\r\n")];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? "" : `; filename="${p.filename}"`}`;
    out.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ""}\r\n`));
    out.push(Buffer.from(p.content));
    out.push(Buffer.from("\r\n"));
  }
  out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}

const cut = (body: Buffer, size: number) => Array.from({ length: Math.ceil(body.length / size) }, (_, i) => body.subarray(i * size, (i + 1) * size));

async function fileOf(pieces: Buffer[], type: string) {
  const file = await openUploadedFile(post(pieces, type).request, "badge", 1024 * 1024);
  if (!file) return null;
  const bytes: Buffer[] = [];
  for await (const piece of file.pieces) bytes.push(piece);
  return { filename: file.filename, type: file.type, bytes: Buffer.concat(bytes) };
}

describe("openUploadedFile: one uploaded file, read as it arrives", () => {
  const content = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 256));
  // The delimiter's own bytes inside the file must not end it early.
  const tricky = Buffer.concat([content, Buffer.from("\r\n--XyW not the end\r\n--Xy"), content]);

  it("finds the file after other fields, whatever the pieces' sizes", async () => {
    const body = multipart("XyZ", [
      { name: "note", content: "hello" },
      { name: "badge", filename: "badge.png", type: "image/png", content: tricky },
    ]);
    for (const size of [1, 2, 7, 64, 1000, body.length]) {
      expect(await fileOf(cut(body, size), "multipart/form-data; boundary=XyZ"), `pieces of ${size}`).toEqual({ filename: "badge.png", type: "image/png", bytes: tricky });
    }
    expect(await fileOf([body], 'multipart/form-data; boundary="XyZ"')).toMatchObject({ bytes: tricky });
  });

  it("answers null without such a file, and 400 for a body that is not the multipart it says", async () => {
    expect(await fileOf([multipart("b", [{ name: "badge", content: "text, no file" }])], "multipart/form-data; boundary=b")).toBeNull();
    expect(await fileOf([Buffer.from("badge=x")], "application/x-www-form-urlencoded")).toBeNull();
    expect(await fileOf([multipart("b", [{ name: "badge", filename: "", content: "" }])], "multipart/form-data; boundary=b")).toMatchObject({ bytes: Buffer.alloc(0) });
    for (const [pieces, type] of [
      [[Buffer.from("garbage")], "multipart/form-data; boundary=b"],
      [[Buffer.from("--b\r\nContent-Disposition: form-data; name=\"badge\"; filename=\"x\"\r\n\r\ncut off")], "multipart/form-data; boundary=b"],
      [[Buffer.from("x")], "multipart/form-data"],
    ] as const) {
      await expect(fileOf([...pieces], type)).rejects.toThrow(FORM_UNREADABLE);
    }
  });

  it("stops reading the body when the reader stops, and refuses more than the limit", async () => {
    const body = multipart("b", [{ name: "badge", filename: "x.png", content: Buffer.alloc(600_000, 1) }]);
    const sent = post(cut(body, 16_384), "multipart/form-data; boundary=b");
    const file = (await openUploadedFile(sent.request, "badge", 1024 * 1024))!;
    for await (const piece of file.pieces) if (piece.length) break;
    expect(sent.pulled()).toBeLessThan(100_000);
    expect(sent.cancelled()).toBe(true);
    const big = post(cut(body, 16_384), "multipart/form-data; boundary=b");
    const tooMuch = (await openUploadedFile(big.request, "badge", 100_000))!;
    await expect((async () => {
      for await (const _ of tooMuch.pieces) void _;
    })()).rejects.toMatchObject({ status: 413 } satisfies Partial<HttpError>);
  });
});
