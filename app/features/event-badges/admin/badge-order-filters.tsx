import { Form, Link } from "react-router";
import { PaymentFilter } from "../../received-payments/components/payment-tag";
import { SCREEN_PATH, SEARCH_PLACEHOLDER, screenHref, STATUS_FILTERS, type ListFilter } from "./badge-orders-screen";

/**
 * A plain GET form: the search box (Enter runs it), Clear, the status links and 'Load Orders',
 * which reloads the list with the filters in the address. Everything here is navigation.
 */
export function BadgeOrderFilters({ filter, loading }: { filter: ListFilter; loading: boolean }) {
  return (
    <Form method="get" action={SCREEN_PATH} className="order-filters" role="search" aria-label="Badge orders">
      <input type="hidden" name="status" value={filter.status} />
      {filter.payment ? <input type="hidden" name="payment" value={filter.payment} /> : null}
      <label htmlFor="order-search">Search orders</label>
      {/* The placeholder is cut on a phone; the same words, written out. */}
      <p className="field-hint" id="order-search-hint">
        By {SEARCH_PLACEHOLDER}.
      </p>
      <div className="order-search-row">
        <input
          // A new search in the address (Clear, a link) resets what the box shows.
          key={filter.q}
          id="order-search"
          type="search"
          name="q"
          defaultValue={filter.q}
          placeholder={SEARCH_PLACEHOLDER}
          aria-describedby="order-search-hint"
          maxLength={100}
          autoComplete="off"
          enterKeyHint="search"
        />
        <Link to={screenHref({ ...filter, q: "" })} className="button button-ghost button-small">
          Clear
        </Link>
      </div>
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
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <button type="submit" className="button-small" aria-busy={loading || undefined}>
          Load Orders
        </button>
      </div>
      <PaymentFilter current={filter.payment} hrefFor={(payment) => screenHref({ ...filter, payment })} />
    </Form>
  );
}
