import type { TitledText } from "~/features/site-content/content";

/** Short cards with a title and a sentence: reasons to join, who we serve, and the like. */
export function TitledGrid({ items, className = "" }: { items: TitledText[]; className?: string }) {
  return (
    <ul className={`grid card-list ${className}`}>
      {items.map((item) => (
        <li key={item.title} className="card">
          <h3>{item.title}</h3>
          <p>{item.text}</p>
        </li>
      ))}
    </ul>
  );
}

/** Numbered steps (the .steps counter draws the numbers). */
export function StepList({ steps }: { steps: TitledText[] }) {
  return (
    <ol className="steps">
      {steps.map((s) => (
        <li key={s.title}>
          <h3>{s.title}</h3>
          <p>{s.text}</p>
        </li>
      ))}
    </ol>
  );
}
