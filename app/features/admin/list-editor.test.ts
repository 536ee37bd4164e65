import { describe, expect, it } from "vitest";
import { z } from "zod";
import { issuesOnRows, isTicked, isZodWording, listIssues, readRowFields, rowsToSave, withNewRow } from "./list-editor";

type Row = { name: string; remove: boolean };
const blank: Row = { name: "", remove: false };
const isBlank = (r: Row) => r.name.trim() === "";

describe("withNewRow", () => {
  it("adds an empty row for a new entry unless the last one is empty already", () => {
    expect(withNewRow([{ name: "a", remove: false }], isBlank, blank)).toEqual([{ name: "a", remove: false }, blank]);
    expect(withNewRow([{ name: "a", remove: false }, { name: " ", remove: false }], isBlank, blank)).toHaveLength(2);
    expect(withNewRow([], isBlank, blank)).toEqual([blank]);
  });
});

describe("readRowFields", () => {
  const NAME = /^items\[(\d{1,4})\]\.([a-z]+)$/;

  it("groups the fields by row, in row order, whatever the form order", () => {
    const form = new FormData();
    form.append("items[10].name", "ten");
    form.append("intent", "save");
    form.append("items[2].name", "two");
    form.append("items[2].remove", "on");
    form.append("items[10].price", "5");
    const rows = readRowFields(form, NAME);
    expect(rows.map((r) => Object.fromEntries(r))).toEqual([{ name: "two", remove: "on" }, { name: "ten", price: "5" }]);
  });

  it("keeps a repeated name's last value and ignores files and other names", () => {
    const form = new FormData();
    form.append("items[0].available", "false");
    form.append("items[0].available", "true");
    form.append("items[0].image", new Blob(["x"]), "x.png");
    form.append("items[0].Name", "capital");
    form.append("posts[0].name", "other list");
    expect(readRowFields(form, NAME).map((r) => Object.fromEntries(r))).toEqual([{ available: "true" }]);
  });
});

describe("isTicked", () => {
  it("is sent with any value but 'false'", () => {
    expect(isTicked(new Map([["remove", "on"]]), "remove")).toBe(true);
    expect(isTicked(new Map([["remove", ""]]), "remove")).toBe(true);
    expect(isTicked(new Map([["remove", "false"]]), "remove")).toBe(false);
    expect(isTicked(new Map(), "remove")).toBe(false);
  });
});

describe("saving a list", () => {
  const rows: Row[] = [
    { name: "a", remove: false },
    { name: "b", remove: true },
    { name: "", remove: false },
    { name: "c", remove: false },
  ];

  it("checks only the rows kept, and puts their problems back on the fieldsets they came from", () => {
    const kept = rowsToSave(rows, isBlank);
    expect(kept).toEqual([
      { row: rows[0], index: 0 },
      { row: rows[3], index: 3 },
    ]);
    expect(
      issuesOnRows(
        [
          { index: 1, field: "name", message: "Taken." },
          { index: 0, field: null, message: "Whole entry." },
          { index: 7, field: null, message: "Not an entry." },
        ],
        kept,
      ),
    ).toEqual([
      { row: 3, field: "name", message: "Taken." },
      { row: 0, field: null, message: "Whole entry." },
      { row: -1, field: null, message: "Not an entry." },
    ]);
  });
});

describe("listIssues", () => {
  const Schema = z.array(z.object({ name: z.string().min(1, "Every entry needs a name."), tags: z.array(z.string().max(3)) }));

  it("places each issue on its entry and field, in staff's words", () => {
    const r = Schema.safeParse([{ name: "ok", tags: [] }, { name: "", tags: ["long"] }, "nope"]);
    expect(r.success).toBe(false);
    const issues = listIssues(
      r.error!.issues,
      (key) => (key === "name" || key === "tags" ? key : null),
      (issue, field) => (isZodWording(issue.message) ? `The ${field ?? "entry"} is not valid.` : issue.message),
    );
    expect(issues).toEqual([
      { index: 1, field: "name", message: "Every entry needs a name.", code: "too_small" },
      { index: 1, field: "tags", message: "The tags is not valid.", code: "too_big" },
      { index: 2, field: null, message: "The entry is not valid.", code: "invalid_type" },
    ]);
  });

  it("knows zod's own wording from a schema's", () => {
    expect(isZodWording("Too big: expected string to have <=3 characters")).toBe(true);
    expect(isZodWording("Invalid input: expected object, received string")).toBe(true);
    expect(isZodWording("Slugs must be under 60 characters.")).toBe(false);
  });
});
