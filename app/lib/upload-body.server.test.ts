import { describe, expect, it } from "vitest";
import { HttpError } from "./http.server";
import { FORM_UNREADABLE } from "./submission.server";
import { openUploadedFile } from "./upload-body.server";

/** A multipart POST whose body arrives in the given pieces; `pulled` counts the bytes read. */
function post(pieces: Buffer[], type: string) {
  let pulled = 0;
  let i = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const piece = pieces[i++];
        if (!piece) return controller.close();
        pulled += piece.length;
        controller.enqueue(new Uint8Array(piece));
      },
    },
    { highWaterMark: 0 },
  );
  // @ts-expect-error Node's fetch needs duplex for a streamed body.
  const request = new Request("http://site.test/badges/verify", { method: "POST", body, headers: { "content-type": type }, duplex: "half" });
  return { request, pulled: () => pulled };
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

describe("one uploaded file, read as it arrives", () => {
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
    const big = post(cut(body, 16_384), "multipart/form-data; boundary=b");
    const tooMuch = (await openUploadedFile(big.request, "badge", 100_000))!;
    await expect((async () => {
      for await (const _ of tooMuch.pieces) void _;
    })()).rejects.toMatchObject({ status: 413 } satisfies Partial<HttpError>);
  });
});
