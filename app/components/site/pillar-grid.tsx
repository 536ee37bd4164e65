import type { Pillar } from "~/features/site-content/content";

/** The three pillars as illustrated cards; the section supplies the h2. */
export function PillarGrid({ pillars }: { pillars: Pillar[] }) {
  return (
    <ul className="grid card-list pillar-grid">
      {pillars.map((p) => (
        <li key={p.id} className="card pillar-card">
          <img src={p.image} width={p.width} height={p.height} alt="" loading="lazy" decoding="async" />
          <h3>{p.name}</h3>
          <p>{p.summary}</p>
          <ul className="list-check">
            {p.points.map((point) => (
              <li key={point}>{point}</li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
