import type { ReactNode } from 'react';
import { Link } from '../../router';

/**
 * The overview's charts: small SVG components of our own rather than a charting library
 * (docs/overview.md, "Charts"). Every mark that stands for findings is a link to the findings
 * list that shows them, named in words (`aria-label`), so the numbers are readable without
 * the picture and reachable by keyboard.
 */

export interface Bar {
  key: string;
  label: ReactNode;
  /** The words a screen reader hears for the bar's link. */
  name: string;
  value: number;
  href: string;
  /** A CSS class giving the bar its fill (`bar-critical`, …). */
  tone?: string;
}

/** Horizontal bars, one row each: the label, the bar scaled to the largest value, the number. */
export function BarList({ bars, empty }: { bars: readonly Bar[]; empty: string }) {
  if (bars.length === 0) return <p className="muted">{empty}</p>;
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <ul className="bar-list">
      {bars.map((bar) => (
        <li key={bar.key}>
          <Link href={bar.href} aria-label={bar.name} className="bar-row">
            <span className="bar-label">{bar.label}</span>
            <svg className="bar-track" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
              <rect
                className={`bar ${bar.tone ?? ''}`}
                x="0"
                y="0"
                height="10"
                width={(bar.value / max) * 100}
              />
            </svg>
            <span className="bar-value">{bar.value}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export interface WeekColumn {
  key: string;
  /** Short label under the column pair ("3 Nov"). */
  label: string;
  created: number;
  resolved: number;
  /** The findings list of the week's new findings. */
  createdHref: string;
  /** The findings list of the resolved ones. */
  resolvedHref: string;
  name: string;
}

const H = 120;
const COLUMN = 24;

/** New and resolved findings per week: a pair of columns per week, each a link. */
export function WeeklyChart({ weeks }: { weeks: readonly WeekColumn[] }) {
  const max = Math.max(1, ...weeks.flatMap((w) => [w.created, w.resolved]));
  const width = weeks.length * COLUMN;
  const height = (n: number) => (n / max) * (H - 4);
  return (
    <figure className="weekly">
      <svg
        viewBox={`0 0 ${width} ${H + 16}`}
        className="weekly-chart"
        role="group"
        aria-label="New and resolved findings per week"
      >
        <line x1="0" x2={width} y1={H} y2={H} className="axis" />
        {weeks.map((w, i) => {
          const x = i * COLUMN + 3;
          return (
            <g key={w.key}>
              <Link href={w.createdHref} aria-label={`${w.name}: ${w.created} new`}>
                <rect
                  className="bar bar-new"
                  x={x}
                  y={H - height(w.created)}
                  width="8"
                  height={Math.max(height(w.created), 0.5)}
                />
                <title>{`${w.name}: ${w.created} new`}</title>
              </Link>
              <Link href={w.resolvedHref} aria-label={`${w.name}: ${w.resolved} resolved`}>
                <rect
                  className="bar bar-resolved"
                  x={x + 9}
                  y={H - height(w.resolved)}
                  width="8"
                  height={Math.max(height(w.resolved), 0.5)}
                />
                <title>{`${w.name}: ${w.resolved} resolved`}</title>
              </Link>
              {i % 2 === weeks.length % 2 ? null : (
                <text x={x + 8} y={H + 12} textAnchor="middle" className="tick">
                  {w.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <span className="key key-new" aria-hidden="true" /> New{' '}
        <span className="key key-resolved" aria-hidden="true" /> Resolved (per week, Monday to Sunday, UTC)
      </figcaption>
    </figure>
  );
}
