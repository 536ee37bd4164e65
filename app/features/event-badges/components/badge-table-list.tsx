import { eventWhenText, type EventRecord } from "../event";
import type { DoorEntry } from "../check-in";

/**
 * The badge table's sheet: each tier with its supporters who asked for a hard-copy badge, a box
 * to tick as each is handed over. A revoked badge stays on the sheet (it may be printed already)
 * with 'Revoked: do not hand over' where its box would be, and is not counted. Printed with the
 * staff shell hidden (admin.css, @media print).
 */
export function BadgeTableList({ groups, event }: { groups: { tierKey: string; tierName: string; people: DoorEntry[] }[]; event: EventRecord }) {
  const due = (people: DoorEntry[]) => people.filter((p) => !p.refused).length;
  const total = groups.reduce((n, g) => n + due(g.people), 0);
  return (
    <div className="badge-table-sheet">
      <p className="badge-table-event">
        {event.title} · {eventWhenText(event)} · {event.venue} · {total} hard-copy {total === 1 ? "badge" : "badges"}
      </p>
      <p className="no-print small">Print this page from the browser's menu: the staff menu is left off the paper.</p>
      {groups.length === 0 ? <p>No approved supporter has asked for a hard-copy badge yet.</p> : null}
      {groups.map((g) => (
        <section key={g.tierKey} className="badge-table-tier" aria-labelledby={`bt-${g.tierKey}`}>
          <h2 id={`bt-${g.tierKey}`}>
            {g.tierName} ({due(g.people)})
          </h2>
          <table className="badge-table">
            <thead>
              <tr>
                <th scope="col">Handed over</th>
                <th scope="col">Name</th>
                <th scope="col">Reference</th>
              </tr>
            </thead>
            <tbody>
              {g.people.map((p) => (
                <tr key={p.id} className={p.refused ? "badge-table-revoked" : undefined}>
                  {p.refused ? <td className="badge-table-refused">Revoked: do not hand over</td> : <td aria-label="Handed over">☐</td>}
                  <td>{p.name}</td>
                  <td>{p.id}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}
