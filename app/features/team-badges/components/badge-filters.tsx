import { Form, Link, useSubmit } from "react-router";
import { useHydrated } from "~/components/ui/form-parts";
import { CATEGORIES } from "../team-badges";
import type { BadgeListQuery } from "../team-badges.schema";

/** A /badges address with the current filters, changed by `change` (empty values dropped). */
export function badgesHref(query: BadgeListQuery, change: Partial<BadgeListQuery> = {}) {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (!next.wonOnly) params.set("won", "0");
  if (next.category !== "all") params.set("category", next.category);
  if (next.verify) params.set("verify", next.verify);
  if (next.id) params.set("id", next.id);
  const search = params.toString();
  return search ? `/badges?${search}` : "/badges";
}

/** Where a search or a tab lands: the list, not the hero above it (a phone's whole first screen). */
export const RESULTS_ANCHOR = "#badges-list-title";

/** Search, 'Show only won badges' and the category tabs: a plain GET form and links. */
export function BadgeFilters({ query, searchText }: { query: BadgeListQuery; searchText: string }) {
  const submit = useSubmit();
  const hydrated = useHydrated();
  return (
    <div className="badge-filters">
      <Form method="get" action={`/badges${RESULTS_ANCHOR}`} className="badge-search" role="search" preventScrollReset>
        <label htmlFor="badge-q">Search badges</label>
        <div className="inline-field">
          <input
            key={searchText}
            id="badge-q"
            type="search"
            name="q"
            defaultValue={searchText}
            placeholder="Title, holder or badge ID"
            maxLength={100}
            autoComplete="off"
          />
          <button type="submit">Search</button>
        </div>
        {/* Unticked boxes send nothing; this makes 'off' reach the server too. */}
        <input type="hidden" name="won" value="0" />
        <label className="check">
          <input
            key={String(query.wonOnly)}
            type="checkbox"
            name="won"
            value="1"
            defaultChecked={query.wonOnly}
            onChange={hydrated ? (e) => submit(e.currentTarget.form, { preventScrollReset: true, replace: true }) : undefined}
          />
          Show only won badges
        </label>
        {query.category !== "all" ? <input type="hidden" name="category" value={query.category} /> : null}
      </Form>
      <nav aria-label="Badge categories" className="badge-tabs">
        <ul>
          {CATEGORIES.map((c) => (
            <li key={c.key}>
              <Link
                to={`${badgesHref(query, { category: c.key, id: "", verify: "" })}${RESULTS_ANCHOR}`}
                aria-current={query.category === c.key ? "page" : undefined}
                preventScrollReset
              >
                {c.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
