import { Form } from "react-router";
import { ACTIVITY_PATH, type ActivityParams } from "../activity-screen";
import { SINCE_DAYS, WINDOW_MINUTES } from "../reports";
import { KeepParams } from "./keep-params";
import { groupDigits } from "~/lib/core/plain-format";

/** Since-days and the unique toggle: a GET form, so the period is in the address. */
export function PeriodForm({ params, error }: { params: ActivityParams; error?: string }) {
  return (
    <Form method="get" action={ACTIVITY_PATH} className="dash-controls" aria-label="Reporting period">
      <KeepParams params={params} omit={["since", "unique"]} />
      <div className="dash-control">
        <label htmlFor="since">Since (days)</label>
        <input
          key={`since-${params.since}`}
          id="since"
          name="since"
          type="number"
          inputMode="numeric"
          min={SINCE_DAYS.min}
          max={SINCE_DAYS.max}
          step={1}
          defaultValue={params.since}
          aria-describedby="since-hint"
          aria-invalid={error ? true : undefined}
        />
        <p id="since-hint" className="field-hint">
          0 means all time.
        </p>
      </div>
      <label className="dash-check">
        <input key={`unique-${params.unique}`} type="checkbox" name="unique" value="1" defaultChecked={params.unique} />
        Rank by unique visitors
      </label>
      <button type="submit" className="button-small">
        Apply
      </button>
      {error ? (
        <p className="field-error dash-control-error" role="alert">
          {error}
        </p>
      ) : null}
    </Form>
  );
}

/** The active-now count with its window input (1 to 1440 minutes). */
export function ActiveNow({ params, total, error }: { params: ActivityParams; total: number | null; error?: string }) {
  return (
    <section className="kpi kpi-live" aria-labelledby="active-now-title">
      <div>
        <h2 id="active-now-title" className="kpi-label">
          Active now
        </h2>
        <p className="kpi-value">{total === null ? "–" : groupDigits(total)}</p>
        <p className="kpi-note">
          visitor{total === 1 ? "" : "s"} in the last {params.window} minute{params.window === 1 ? "" : "s"}
        </p>
      </div>
      <Form method="get" action={ACTIVITY_PATH} className="kpi-form" aria-label="Active-now window">
        <KeepParams params={params} omit={["window"]} />
        <label htmlFor="window">Window (minutes)</label>
        <div className="inline-field">
          <input
            key={`window-${params.window}`}
            id="window"
            name="window"
            type="number"
            inputMode="numeric"
            min={WINDOW_MINUTES.min}
            max={WINDOW_MINUTES.max}
            step={1}
            defaultValue={params.window}
            aria-invalid={error ? true : undefined}
          />
          <button type="submit" className="button-small button-ghost">
            Update
          </button>
        </div>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </Form>
    </section>
  );
}

export function Kpi({ label, value, note }: { label: string; value: number | null; note: string }) {
  return (
    // Not a landmark: two figures may share a label ('Page views' for two periods); its heading names it.
    <div className="kpi">
      <h2 className="kpi-label">{label}</h2>
      <p className="kpi-value">{value === null ? "–" : groupDigits(value)}</p>
      <p className="kpi-note">{note}</p>
    </div>
  );
}
