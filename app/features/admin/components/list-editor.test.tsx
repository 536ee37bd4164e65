import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { RowIssue } from "../list-editor";
import { ListEditor, RowFieldset, type FieldSpec } from "./list-editor";

type Row = { name: string; image: string; notes: string; remove: boolean };
const BLANK: Row = { name: "", image: "", notes: "", remove: false };
const FIELDS: FieldSpec<"name" | "image" | "notes">[] = [
  { field: "name", label: "Name", maxLength: 80, placeholder: "Lamp cap", attrs: { spellCheck: undefined } },
  { field: "image", label: "Image", maxLength: 500, hint: "A path on this site" },
  { field: "notes", label: "Notes", maxLength: 300, textarea: { rows: 5 }, wide: true },
];

/** The editor as the server renders it (it reads the navigation state, so it needs a data router). */
async function render(props: { rows: Row[]; issues?: RowIssue<string>[]; examples?: "always" | "new-row"; reply?: { status: "error"; message: string } }) {
  const element = (
    <ListEditor
      action="/things/admin"
      className="thing-editor"
      label="Things"
      listClassName="things"
      rows={props.rows}
      blankRow={BLANK}
      isBlankRow={(r) => r.name === "" && r.image === "" && r.notes === ""}
      issues={props.issues}
      reply={props.reply}
      status={props.reply ? " (see below)" : null}
      buttons={[
        { intent: "save", label: "Save Changes", busyLabel: "Saving…" },
        { intent: "share", label: "Share", busyLabel: "Sharing…", ghost: true },
      ]}
      help={<li>Help text.</li>}
      renderRow={(row, i, isNew, issues) => (
        <RowFieldset
          kind="thing"
          idPrefix="thing"
          index={i}
          isNew={isNew}
          legend={isNew ? "Add a new thing" : row.name}
          image={row.image}
          thumb={{ width: 40, height: 40 }}
          issues={issues}
          fields={FIELDS}
          values={row}
          nameOf={(f) => `things[${i}].${f}`}
          examples={props.examples}
          footClassName="thing-foot"
          footStart={<span className="mine">own control</span>}
          removed={row.remove}
        />
      )}
    />
  );
  const handler = createStaticHandler([{ path: "/things/admin", Component: () => element }]);
  const context = await handler.query(new Request("http://site.test/things/admin"));
  if (context instanceof Response) throw new Error("unexpected response");
  return renderToStaticMarkup(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />);
}

const fieldsets = (html: string) => html.match(/<fieldset[\s\S]*?<\/fieldset>/g) ?? [];
/** The attributes of the element with this id, or of the first element matching `start`. */
function attrs(html: string, start: string): Record<string, string> {
  const tag = new RegExp(`<${start}[^>]*>`).exec(html)?.[0] ?? "";
  return Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe("ListEditor with RowFieldset", () => {
  const cap: Row = { name: "Cap", image: "/images/cap.webp", notes: "Warm", remove: true };
  const mug: Row = { name: "Mug", image: "javascript:alert(1)", notes: "", remove: false };

  it("is one plain POST form: a fieldset per entry, an empty one for a new entry, and a button per intent", async () => {
    const html = await render({ rows: [cap, mug] });
    expect(attrs(html, "form")).toMatchObject({ method: "post", action: "/things/admin", class: "thing-editor", "aria-label": "Things" });
    expect(html).toContain("<summary>How the fields are read</summary><ul><li>Help text.</li></ul>");
    const [first, second, fresh] = fieldsets(html);
    expect(fieldsets(html)).toHaveLength(3);
    expect(first).toContain(`<fieldset class="thing">`);
    expect(attrs(first!, `input id="thing-0-name"`)).toEqual({
      id: "thing-0-name",
      name: "things[0].name",
      value: "Cap",
      placeholder: "Lamp cap",
      maxLength: "80",
      type: "text",
      autoComplete: "off",
      autoCapitalize: "off",
    });
    expect(attrs(first!, `input id="thing-0-image"`)).toMatchObject({ spellCheck: "false", "aria-describedby": "thing-0-image-hint" });
    expect(first).toMatch(/<textarea id="thing-0-notes" name="things\[0\]\.notes" maxLength="300" rows="5" spellCheck="true">Warm<\/textarea>/);
    expect(first).toContain(`<div class="field field-notes field-wide">`);
    expect(attrs(first!, `input type="checkbox"`)).toMatchObject({ id: "thing-0-remove", name: "things[0].remove", value: "on", checked: "" });
    expect(first).toMatch(/<div class="thing-foot"><span class="mine">own control<\/span><label class="check check-remove">/);
    // A thumbnail only for an image the save allows.
    expect(attrs(first!, "img")).toMatchObject({ class: "thing-thumb", src: "/images/cap.webp", alt: "", width: "40", height: "40" });
    expect(second).not.toContain("<img");
    expect(fresh).toContain(`<fieldset class="thing thing-new"><legend><span>Add a new thing</span></legend>`);
    expect(fresh).not.toContain("remove");
    expect(attrs(html, `button type="submit" value="save"`)).toEqual({ type: "submit", value: "save", name: "intent" });
    expect(html).toContain(`>Save Changes</button>`);
    expect(attrs(html, `button type="submit" value="share"`)).toEqual({ type: "submit", value: "share", name: "intent", class: "button-ghost" });
    expect(html).toContain(`<p role="status" aria-live="polite" class="admin-message"></p>`);
  });

  it("keeps examples to the new entry when asked", async () => {
    const html = await render({ rows: [cap], examples: "new-row" });
    const [saved, fresh] = fieldsets(html);
    expect(saved).not.toContain("placeholder=");
    expect(fresh).toContain(`placeholder="Lamp cap"`);
  });

  it("marks the fields a refused save names, and says what is wrong with an entry as a whole", async () => {
    const html = await render({
      rows: [cap, mug],
      reply: { status: "error", message: "Save failed." },
      issues: [
        { row: 1, field: "name", message: "Two things share the name." },
        { row: 1, field: null, message: "This thing is not valid." },
      ],
    });
    const [first, second] = fieldsets(html);
    expect(first).not.toContain("aria-invalid");
    expect(second).toContain(`<fieldset class="thing has-error">`);
    expect(second).toContain(`<p class="field-error">This thing is not valid.</p>`);
    expect(attrs(second!, `input id="thing-1-name"`)).toMatchObject({ "aria-invalid": "true", "aria-describedby": "thing-1-name-error" });
    expect(second).toContain("Two things share the name.");
    expect(html).toContain(`<p role="status" aria-live="polite" class="admin-message admin-message-error">Save failed. (see below)</p>`);
  });
});
