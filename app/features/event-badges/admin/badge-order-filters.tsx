import { Form, Link } from "react-router";
import { PaymentFilterMenu } from "../../admin/components/payment-filter-menu";
import { SCREEN_PATH, SEARCH_PLACEHOLDER, screenHref, STATUS_FILTERS, type FoundByStatus, type ListFilter } from "./badge-orders-screen";

/**
 * What a search found under the other tabs, with links there: 'Found 1 in Approved'. A search
 * looks in every state; the list shows the current tab's.
 */
function FoundElsewhere({ filter, found }: { filter: ListFilter; found: FoundByStatus }) {
  if (filter.status === "all") return null;
  const here = found[filter.status];
  const elsewhere = STATUS_FILTERS.filter((s) => s.value !== "all" && s.value !== filter.status && found[s.value] > 0);
  if (elsewhere.length === 0) return null;
  const current = STATUS_FILTERS.find((s) => s.value === filter.status)!.label;
  return (
    <p className="search-elsewhere">
      {here === 0 ? `None in ${current}. ` : `${here} in ${current}. `}
      Found{" "}
      {elsewhere.map((s, i) => (
        <span key={s.value}>
          {i > 0 ? (i === elsewhere.length - 1 ? " and " : ", ") : ""}
          <Link to={screenHref({ ...filter, status: s.value })}>
            {found[s.value]} in {s.label}
          </Link>
        </span>
      ))}
      .
    </p>
  );
}

/**
 * A plain GET form: the search box (Enter runs it), Clear, the status links and 'Load Orders',
 * which reloads the list with the filters in the address. Everything here is navigation. While
 * searching, each status link says how many orders it holds that match.
 */
export function BadgeOrderFilters({ filter, loading, found = null }: { filter: ListFilter; loading: boolean; found?: FoundByStatus | null }) {
  return (
    <Form method="get" action={SCREEN_PATH} className="order-filters" role="search" aria-label="Badge orders">
      <input type="hidden" name="status" value={filter.status} />
      {filter.payment ? <input type="hidden" name="payment" value={filter.payment} /> : null}
      <label htmlFor="order-search">Search orders</label>
      {/* The placeholder is cut on a phone; the same words, written out (not while a search is shown: its results come first). */}
      {filter.q ? null : (
        <p className="field-hint" id="order-search-hint">
          By {SEARCH_PLACEHOLDER}.
        </p>
      )}
      <div className="order-search-row">
        <input
          // A new search in the address (Clear, a link) resets what the box shows.
          key={filter.q}
          id="order-search"
          type="search"
          name="q"
          defaultValue={filter.q}
          placeholder={SEARCH_PLACEHOLDER}
          aria-describedby={filter.q ? undefined : "order-search-hint"}
          maxLength={100}
          autoComplete="off"
          enterKeyHint="search"
        />
        <Link to={screenHref({ ...filter, q: "" })} className="button button-ghost button-small">
          Clear
        </Link>
      </div>
      {found ? <FoundElsewhere filter={filter} found={found} /> : null}
      <div className="order-filter-row">
        <nav aria-label="Filter by status">
          <ul className="status-filters">
            {STATUS_FILTERS.map((s) => (
              <li key={s.value}>
                <Link
                  to={screenHref({ ...filter, status: s.value })}
                  aria-current={s.value === filter.status ? "page" : undefined}
                >
                  {s.label}
                  {found ? <span className="status-count"> ({found[s.value]})</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <button type="submit" className="button-small" aria-busy={loading || undefined}>
          Load Orders
        </button>
      </div>
      <PaymentFilterMenu current={filter.payment} hrefFor={(payment) => screenHref({ ...filter, payment })} />
    </Form>
  );
}
