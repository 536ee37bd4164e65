import { Link } from "react-router";
import { ResponsiveImage } from "~/components/ui/responsive-image";
import { formatMoney, MERCH_MESSAGES, type MerchItem } from "../merch";
import { itemHref, OPENED } from "./store-links";

/** Cards that start on the first screen of a phone load at once; the rest wait for scrolling. */
const EAGER_CARDS = 2;

export function CatalogueGrid({ items }: { items: MerchItem[] }) {
  if (items.length === 0) return <p className="merch-empty">{MERCH_MESSAGES.emptyCatalogue}</p>;
  return (
    <ul className="merch-grid" role="list">
      {items.map((item, i) => (
        <MerchCard key={item.id} item={item} eager={i < EAGER_CARDS} />
      ))}
    </ul>
  );
}

function MerchCard({ item, eager }: { item: MerchItem; eager: boolean }) {
  return (
    <li className={item.available ? "merch-card" : "merch-card is-restocking"}>
      <div className="merch-card-media">
        <ResponsiveImage
          src={item.image}
          width={480}
          height={480}
          maxWidth={300}
          sizes="(min-width: 720px) 260px, 46vw"
          alt=""
          priority={eager}
        />
        {!item.available ? <span className="pill pill-restocking merch-card-badge">Restocking</span> : null}
      </div>
      <div className="merch-card-body">
        <h3>
          <Link to={itemHref(item.slug)} state={OPENED} preventScrollReset className="merch-card-link">
            {item.name}
          </Link>
        </h3>
        <p className="merch-card-price">{formatMoney(item.price, item.currency)}</p>
        {item.impact ? <p className="merch-card-impact">{item.impact}</p> : null}
        <span className="merch-card-cta button button-small" aria-hidden="true">
          {!item.available ? "See details" : item.colors.length + item.sizes.length > 0 ? "Choose options" : "View item"}
        </span>
      </div>
    </li>
  );
}
