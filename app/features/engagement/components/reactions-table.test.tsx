import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ReactionsTable } from "./reactions-table";
import { SubscribersTable } from "./subscribers-table";

describe("the engagement dashboard's empty lists", () => {
  it("say so in a sentence, not in a wide table's clipped cell", () => {
    const reactions = renderToStaticMarkup(<ReactionsTable block={{ ok: true, rows: [] }} />);
    expect(reactions).toBe('<p class="dash-empty">No one has reacted to a post yet.</p>');
    const subscribers = renderToStaticMarkup(<SubscribersTable block={{ ok: true, rows: [] }} />);
    expect(subscribers).toBe('<p class="dash-empty">No one has subscribed yet.</p>');
  });
});
