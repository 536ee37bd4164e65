import { useEffect, useState } from "react";
import { EVENT_PROGRESS_API, percentOf, PROGRESS_REFRESH_MS, type EventProgress } from "../progress";
import { formatKes } from "../tiers";

/**
 * The figures the server rendered, then, with JavaScript, fresh ones every 30 seconds without
 * a reload (not while the tab is hidden; a failed request keeps the last figures).
 */
export function useEventProgress(initial: EventProgress): EventProgress {
  const [progress, setProgress] = useState(initial);
  useEffect(() => setProgress(initial), [initial]);
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.hidden) return;
      fetch(EVENT_PROGRESS_API, { headers: { Accept: "application/json" } })
        .then((r) => (r.ok ? r.json() : null))
        .then((next: (EventProgress & { ok?: boolean }) | null) => {
          if (next?.ok && Array.isArray(next.tiers)) setProgress(next);
        })
        .catch(() => undefined);
    }, PROGRESS_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return progress;
}

/** A bar drawn in HTML and CSS (no script needed); the words beside it say the same, so readers skip it. */
export function ProgressBar({ value, max }: { value: number; max: number }) {
  return (
    <div className="progress-bar" aria-hidden="true">
      <span style={{ width: `${percentOf(value, max)}%` }} />
    </div>
  );
}

/** The evening's raise: KES raised from approved orders against the target. */
export function EveningGoal({ progress }: { progress: EventProgress }) {
  return (
    <div className="evening-goal" aria-live="polite">
      <p>
        <strong>{formatKes(progress.raised)}</strong> raised of {formatKes(progress.target)}
      </p>
      <ProgressBar value={progress.raised} max={progress.target} />
    </div>
  );
}
