import { useId } from "react";
import type { DayCount } from "../reports";
import { formatCount, formatDay, formatDayLong, niceCeiling } from "../activity-screen";

/**
 * Two drawings of one chart: the wide one, and one for a phone-wide card (fewer day labels, a
 * narrower drawing), chosen by the card's width in CSS (a container query, no script), so the
 * labels are drawn about 12-13 px tall on any screen instead of shrinking with the picture.
 */
const LAYOUTS = {
  wide: { W: 760, H: 270, pad: { left: 52, right: 12, top: 14, bottom: 34 }, labelEvery: 5, lastLabel: true },
  narrow: { W: 300, H: 230, pad: { left: 42, right: 6, top: 12, bottom: 30 }, labelEvery: 10, lastLabel: true },
} as const;

type Layout = keyof typeof LAYOUTS;
const LABEL_HALF = 24;

/**
 * Page views per day as a bar chart drawn on the server (plain SVG: no chart code in the
 * browser). Screen readers get its title and a summary; the numbers are also in a table.
 */
export function DailyViewsChart({ days }: { days: DayCount[] }) {
  const id = useId();
  const total = days.reduce((s, d) => s + d.views, 0);
  const busiest = days.reduce((b, d) => (d.views > b.views ? d : b), days[0] ?? { day: "", views: 0 });
  const first = days[0]?.day;
  const last = days.at(-1)?.day;
  const title = `Page views per day, last ${days.length} days`;
  const summary =
    first && last
      ? `${formatCount(total)} page views from ${formatDayLong(first)} to ${formatDayLong(last)} (UTC days); ` +
        (busiest.views > 0 ? `the busiest day was ${formatDayLong(busiest.day)} with ${formatCount(busiest.views)}.` : "none yet.")
      : "No days to show.";

  return (
    <figure className="chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="chart-caption">
        Last {days.length} days (UTC) · {formatCount(total)} page views
        {busiest.views > 0 ? ` · busiest ${formatDay(busiest.day)}` : ""}
      </figcaption>
      {(["wide", "narrow"] as const).map((layout) => (
        <ChartSvg key={layout} layout={layout} days={days} busiest={busiest} id={`${id}-${layout}`} title={title} summary={summary} />
      ))}
      <details className="chart-data">
        <summary>Show the numbers</summary>
        {/* It scrolls: reachable with the keyboard, and named. */}
        <div className="table-wrap" tabIndex={0} role="group" aria-label={`${title}: the numbers`}>
          <table className="dash-table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col" className="num">
                  Page views
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}>
                  <td>{formatDayLong(d.day)}</td>
                  <td className="num">{formatCount(d.views)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

function ChartSvg({
  layout,
  days,
  busiest,
  id,
  title,
  summary,
}: {
  layout: Layout;
  days: DayCount[];
  busiest: DayCount;
  id: string;
  title: string;
  summary: string;
}) {
  const { W, H, pad: PAD, labelEvery, lastLabel } = LAYOUTS[layout];
  const top = niceCeiling(Math.max(1, busiest.views));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(2, slot * 0.72);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(top * f));
  return (
    <svg
      className={`chart-svg chart-svg-${layout}`}
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-desc`}
      preserveAspectRatio="xMidYMid meet"
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{summary}</desc>
      <g className="chart-grid" aria-hidden="true">
        {[...new Set(ticks)].map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} />
            <text x={PAD.left - 6} y={y(t)} dy="0.35em" textAnchor="end">
              {formatCount(t)}
            </text>
          </g>
        ))}
      </g>
      <g className="chart-bars">
        {days.map((d, i) => {
          const h = (d.views / top) * plotH;
          return (
            <rect
              key={d.day}
              x={PAD.left + i * slot + (slot - barW) / 2}
              y={PAD.top + plotH - h}
              width={barW}
              height={Math.max(0, h)}
              rx={Math.min(3, barW / 3)}
              className={d.day === busiest.day && d.views > 0 ? "chart-bar chart-bar-peak" : "chart-bar"}
            >
              <title>{`${formatDayLong(d.day)}: ${formatCount(d.views)} page views`}</title>
            </rect>
          );
        })}
      </g>
      <g className="chart-axis" aria-hidden="true">
        {days.map((d, i) => {
          if (i % labelEvery !== 0 && !(lastLabel && i === days.length - 1)) return null;
          const x = PAD.left + i * slot + slot / 2;
          // A day label ('24 Nov') is about 48 units wide: kept inside the drawing at either end.
          const anchor = x - LABEL_HALF < PAD.left - 8 ? "start" : x + LABEL_HALF > W ? "end" : "middle";
          return (
            <text key={d.day} x={anchor === "start" ? x - slot / 2 : anchor === "end" ? x + slot / 2 : x} y={H - PAD.bottom + 18} textAnchor={anchor}>
              {formatDay(d.day)}
            </text>
          );
        })}
      </g>
    </svg>
  );
}
