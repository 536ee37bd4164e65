import { Link } from "react-router";
import { goalIn, supportersOf, type EventProgress } from "../progress";
import { formatKes, TIERS, type Tier } from "../tiers";
import { EveningGoal, ProgressBar } from "./goal-bar";

/** A tier's colours as CSS variables; event.css paints the card and dialog with them. */
export function tierStyle(tier: Tier): React.CSSProperties {
  return {
    "--tier-primary": tier.theme.primary,
    "--tier-secondary": tier.theme.secondary,
    "--tier-accent": tier.theme.accent,
    "--tier-text": tier.theme.text,
  } as React.CSSProperties;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function TierGrid({ progress }: { progress: EventProgress }) {
  return (
    <>
      <ul className="tier-grid" role="list">
        {TIERS.map((tier) => (
          <TierCard key={tier.key} tier={tier} goal={goalIn(progress, tier)} supporters={supportersOf(progress, tier.key)} />
        ))}
      </ul>
      <aside className="tier-targets" aria-labelledby="tier-targets-title">
        <h3 id="tier-targets-title">Tier targets</h3>
        <ul>
          {TIERS.map((t) => (
            <li key={t.key} style={tierStyle(t)}>
              <strong>{supportersOf(progress, t.key)} of {goalIn(progress, t)}</strong> <span>{t.name}</span>
            </li>
          ))}
        </ul>
        <EveningGoal progress={progress} />
        <p>
          Meeting every tier target doubles the raise target for the evening. Every badge moves us closer.{" "}
          <Link to="/event/supporters">See the supporter wall</Link>.
        </p>
      </aside>
    </>
  );
}

function TierCard({ tier, goal, supporters }: { tier: Tier; goal: number; supporters: number }) {
  const reached = supporters >= goal;
  const titleId = `tier-${tier.key}-title`;
  return (
    <li className={reached ? "tier-card tier-card-reached" : "tier-card"} style={tierStyle(tier)}>
      <div className="tier-card-head">
        <span className="tier-medal" aria-hidden="true">
          {tier.subtitle.replace(/\D/g, "")}
        </span>
        <div>
          <h3 id={titleId}>{tier.name}</h3>
          <p className="tier-subtitle">{tier.subtitle}</p>
        </div>
      </div>
      <div className="tier-card-body">
        <p className="tier-amount">{formatKes(tier.amount)}</p>
        <span id={`${titleId}-includes`} className="visually-hidden">
          Includes
        </span>
        <ul className="tier-chips" aria-labelledby={`${titleId}-includes`}>
          <li>{tier.audience}</li>
          <li>QR Badge</li>
        </ul>
        <p className="tier-impact">{tier.impact}</p>
        <p className="tier-goal">
          {supporters} of {plural(goal, "supporter")}
          {reached ? <strong className="tier-reached"> · Target reached</strong> : null}
        </p>
        <ProgressBar value={supporters} max={goal} />
        <Link
          to={`/event?tier=${tier.key}#confirm`}
          className="button tier-button"
          preventScrollReset
        >
          Support &amp; confirm<span className="visually-hidden"> the {tier.name}</span>
        </Link>
      </div>
    </li>
  );
}
