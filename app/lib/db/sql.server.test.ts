import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyColumnContains, likeContaining } from "./sql.server";

type Row = { id: string; name: string; email: string };
let db: Kysely<{ people: Row }>;

beforeAll(async () => {
  db = new Kysely<{ people: Row }>({ dialect: new SqliteDialect({ database: new Database(":memory:") }) });
  await db.schema.createTable("people").addColumn("id", "text").addColumn("name", "text").addColumn("email", "text").execute();
  await db
    .insertInto("people")
    .values([
      { id: "1", name: "Wanjiku Kamau", email: "wanjiku@example.org" },
      { id: "2", name: "Achieng 100% Otieno", email: "achieng@example.org" },
      { id: "3", name: "Brian_Mwangi", email: "brian@example.org" },
      { id: "4", name: "BrianXMwangi", email: "b\\x@example.org" },
      { id: "5", name: "Ochieng", email: "ochieng@Example.ORG" },
    ])
    .execute();
});
afterAll(() => db.destroy());

const search = async (text: string) =>
  (await db.selectFrom("people").select("id").where(anyColumnContains(["name", "email"], text)).orderBy("id").execute()).map((r) => r.id);

describe("anyColumnContains", () => {
  it("finds the text anywhere in any of the columns, ignoring case", async () => {
    expect(await search("KAMAU")).toEqual(["1"]);
    expect(await search("example.org")).toEqual(["1", "2", "3", "4", "5"]);
    expect(await search("ochieng@example")).toEqual(["5"]);
  });

  it("takes %, _ and \\ as typed, never as wildcards", async () => {
    expect(await search("100%")).toEqual(["2"]);
    expect(await search("%")).toEqual(["2"]);
    expect(await search("brian_")).toEqual(["3"]);
    expect(await search("b\\x")).toEqual(["4"]);
    expect(await search("no one")).toEqual([]);
  });

  it("can stand beside other conditions", async () => {
    const rows = await db.selectFrom("people").select("id").where("id", "!=", "1").where(anyColumnContains(["name"], "a")).orderBy("id").execute();
    expect(rows.map((r) => r.id)).toEqual(["2", "3", "4"]);
  });
});

describe("likeContaining", () => {
  it("escapes with a backslash and wraps in %", () => {
    expect(likeContaining("a%b_c\\d")).toBe("%a\\%b\\_c\\\\d%");
  });
});
