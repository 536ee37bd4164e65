import { beforeEach, describe, expect, it } from "vitest";
import { action } from "~/routes/badges/verify-upload";
import { bakePng } from "~/features/badge-art/bake.server";
import { env } from "~/lib/env.server";
import { seedTeamBadges } from "../../db/seed/team-badges";
import { plainKitPng } from "../support/kit-png";
import { freshApp } from "../support/reset";
import { args, ORIGIN } from "../support/http";

/** POST /badges/verify with a file, as the page's upload form sends it (a browser states the length). */
async function upload(bytes: Buffer, name = "badge.png") {
  const form = new FormData();
  form.set("badge", new File([new Uint8Array(bytes)], name, { type: "image/png" }));
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const type = encoded.headers.get("content-type")!;
  return new Request(`${ORIGIN}/badges/verify`, { method: "POST", body, headers: { Origin: ORIGIN, "content-type": type, "content-length": String(body.length) } });
}

async function answer(bytes: Buffer) {
  const res = (await action(args(await upload(bytes)))) as Response | { data: { message: string }; init: { status: number } };
  if (res instanceof Response) return { status: res.status, location: res.headers.get("location"), message: "" };
  return { status: res.init.status, location: null, message: res.data.message };
}

beforeEach(async () => {
  const db = await freshApp();
  await seedTeamBadges(db);
});

describe("POST /badges/verify (a badge file)", () => {
  it("a baked PNG of ours goes on to its badge's verify page", async () => {
    const baked = bakePng(await plainKitPng(), `${env().publicUrl}/badges/assertions/b5692.json`);
    expect(await answer(baked)).toEqual({ status: 303, location: "/badges/verify/b5692", message: "" });
  });

  it("refuses, each with its own reason: not a PNG, no record, a forged record, an oversized file", async () => {
    expect(await answer(Buffer.from("%PDF-1.7 not a picture"))).toMatchObject({ status: 400, message: "That file is not a PNG image." });
    expect(await answer(await plainKitPng())).toMatchObject({ status: 400, message: expect.stringContaining("carries no badge record") });
    const forged = bakePng(await plainKitPng(), `${env().publicUrl}/badges/assertions/b9999.json`);
    expect(await answer(forged)).toMatchObject({ status: 400, message: "The badge record in that file does not point at a badge we issued." });
    const huge = Buffer.concat([await plainKitPng(), Buffer.alloc(7 * 1024 * 1024)]);
    expect(await answer(huge)).toMatchObject({ status: 413, message: "That file is larger than 6 MB: a badge PNG is far smaller." });
  });
});
