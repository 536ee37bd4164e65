import { beforeEach, describe, expect, it } from "vitest";
import { freshApp, testDatabaseKind } from "../../../tests/support/reset";
import { deleteBlob, deleteBlobs, getBlob, hasBlob, listBlobs, putBlob } from "./blob-store.server";
import type { Db } from "./db.server";

let db: Db;
beforeEach(async () => {
  db = await freshApp();
});

describe(`stored files on ${testDatabaseKind}`, () => {
  it("stores, replaces, lists, reads and deletes by key", async () => {
    await putBlob(db, "badge-orders/BO-ABC123/portrait.png", Buffer.from("first"));
    await putBlob(db, "badge-orders/BO-ABC123/portrait.png", Buffer.from("second"));
    await putBlob(db, "badge-orders/BO-ABC123/badge.png", "badge");
    await putBlob(db, "badge-orders/BO-XYZ789/poster.png", "poster");
    expect((await getBlob(db, "badge-orders/BO-ABC123/portrait.png"))?.toString()).toBe("second");
    expect(await hasBlob(db, "badge-orders/BO-ABC123/badge.png")).toBe(true);
    expect(await listBlobs(db, "badge-orders/BO-ABC123")).toEqual(["badge.png", "portrait.png"]);
    await deleteBlob(db, "badge-orders/BO-ABC123/badge.png");
    expect(await hasBlob(db, "badge-orders/BO-ABC123/badge.png")).toBe(false);
    await deleteBlobs(db, "badge-orders/BO-ABC123");
    expect(await getBlob(db, "badge-orders/BO-ABC123/portrait.png")).toBeNull();
    expect(await listBlobs(db, "badge-orders/BO-ABC123")).toEqual([]);
    // The other order's file is untouched.
    expect((await getBlob(db, "badge-orders/BO-XYZ789/poster.png"))?.toString()).toBe("poster");
  });

  it("refuses keys that could leave the store", async () => {
    for (const key of ["../site.db", "badge-orders/../site.db", "badge-orders/..", "/etc/passwd", "badge-orders//x", "Badge/x", "badge-orders/x y"]) {
      await expect(putBlob(db, key, "x"), key).rejects.toThrow(/not a stored-file key/);
      await expect(getBlob(db, key), key).rejects.toThrow(/not a stored-file key/);
    }
  });
});
