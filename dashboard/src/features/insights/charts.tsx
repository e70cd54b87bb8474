import { useId, type ReactNode } from 'react';

/** Chart colours: each at least 3:1 against white (WCAG non-text contrast), told apart by the legend too. */
export const SENTIMENT_COLOURS = { negative: '#b4232a', neutral: '#5f6b7d', positive: '#1a7f37' } as const;
const BAR = '#1549b3';
const PREVIOUS = '#8aa4d6';

const number = new Intl.NumberFormat();

/** An SVG chart that screen readers announce by its title, with a description of what it shows. */
function Figure({ title, description, width, height, children }: { title: string; description: string; width: number; height: number; children: ReactNode }) {
  const id = useId();
  return (
    <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-t ${id}-d`}>
      <title id={`${id}-t`}>{title}</title>
      <desc id={`${id}-d`}>{description}</desc>
      {children}
    </svg>
  );
}

export interface StackedPoint {
  label: string;
  parts: Array<{ name: keyof typeof SENTIMENT_COLOURS; value: number }>;
}

/** Bars over time, each stacked by sentiment (negative at the bottom), with a few gridlines and dates. */
export function StackedBars({ title, points }: { title: string; points: StackedPoint[] }) {
  const width = 720;
  const height = 240;
  const left = 40;
  const bottom = 24;
  const top = 8;
  const totals = points.map((point) => point.parts.reduce((sum, part) => sum + part.value, 0));
  const max = Math.max(1, ...totals);
  const step = (width - left) / Math.max(1, points.length);
  const scale = (value: number) => (value / max) * (height - top - bottom);
  const ticks = [0, 0.5, 1].map((share) => Math.round(max * share));
  const labelEvery = Math.ceil(points.length / 8);
  const busiest = totals.indexOf(Math.max(...totals));
  const description =
    points.length === 0
      ? 'No points.'
      : `${points.length} points from ${points[0].label} to ${points[points.length - 1].label}, ${number.format(totals.reduce((a, b) => a + b, 0))} items in all; the most, ${number.format(totals[busiest])}, on ${points[busiest].label}.`;
  return (
    <Figure title={title} description={description} width={width} height={height}>
      {[...new Set(ticks)].map((tick) => {
        const y = height - bottom - scale(tick);
        return (
          <g key={tick}>
            <line x1={left} x2={width} y1={y} y2={y} stroke="#d5dae3" />
            <text x={left - 6} y={y + 4} textAnchor="end" className="axis">
              {number.format(tick)}
            </text>
          </g>
        );
      })}
      {points.map((point, index) => {
        let y = height - bottom;
        const x = left + index * step + step * 0.15;
        return (
          <g key={point.label}>
            <title>{`${point.label}: ${point.parts.map((part) => `${part.value} ${part.name}`).join(', ')}`}</title>
            {point.parts.map((part) => {
              const h = scale(part.value);
              y -= h;
              return <rect key={part.name} x={x} y={y} width={step * 0.7} height={h} fill={SENTIMENT_COLOURS[part.name]} />;
            })}
            {index % labelEvery === 0 && (
              <text x={x + step * 0.35} y={height - 6} textAnchor="middle" className="axis">
                {point.label}
              </text>
            )}
          </g>
        );
      })}
    </Figure>
  );
}

/** One bar split into the shares of its parts, each labelled with its percentage. */
export function ShareBar({ title, parts }: { title: string; parts: Array<{ name: keyof typeof SENTIMENT_COLOURS; label: string; value: number }> }) {
  const width = 720;
  const height = 48;
  const total = parts.reduce((sum, part) => sum + part.value, 0);
  const percent = (value: number) => (total === 0 ? 0 : Math.round((value / total) * 100));
  let x = 0;
  return (
    <Figure title={title} description={parts.map((part) => `${part.label} ${percent(part.value)}% (${number.format(part.value)})`).join(', ')} width={width} height={height}>
      {parts.map((part) => {
        const w = total === 0 ? 0 : (part.value / total) * width;
        const at = x;
        x += w;
        return (
          <g key={part.name}>
            <rect x={at} y={0} width={w} height={height} fill={SENTIMENT_COLOURS[part.name]} />
            {w > 60 && (
              <text x={at + w / 2} y={height / 2 + 5} textAnchor="middle" className="on-colour">
                {percent(part.value)}%
              </text>
            )}
          </g>
        );
      })}
    </Figure>
  );
}

/**
 * Horizontal bars, largest first, each with its name and figure; with `previous`, a thinner bar below each
 * shows the period before, so the trend reads at a glance.
 */
export function BarList({ title, rows }: { title: string; rows: Array<{ label: string; value: number; previous?: number; note?: string }> }) {
  const width = 720;
  const rowHeight = rows.some((row) => row.previous !== undefined) ? 40 : 28;
  const height = Math.max(rowHeight, rows.length * rowHeight);
  const labelWidth = 220;
  const max = Math.max(1, ...rows.map((row) => Math.max(row.value, row.previous ?? 0)));
  const scale = (value: number) => (value / max) * (width - labelWidth - 120);
  return (
    <Figure
      title={title}
      description={rows.map((row) => `${row.label}: ${number.format(row.value)}${row.previous !== undefined ? ` (before: ${number.format(row.previous)})` : ''}`).join('; ') || 'Nothing to show.'}
      width={width}
      height={height}
    >
      {rows.map((row, index) => {
        const y = index * rowHeight;
        return (
          <g key={row.label}>
            <text x={labelWidth - 8} y={y + 17} textAnchor="end" className="label">
              {row.label.length > 30 ? `${row.label.slice(0, 29)}…` : row.label}
            </text>
            <rect x={labelWidth} y={y + 4} width={scale(row.value)} height={18} fill={BAR} />
            <text x={labelWidth + scale(row.value) + 6} y={y + 17} className="label">
              {number.format(row.value)}
              {row.note ? ` ${row.note}` : ''}
            </text>
            {row.previous !== undefined && <rect x={labelWidth} y={y + 25} width={scale(row.previous)} height={8} fill={PREVIOUS} />}
          </g>
        );
      })}
    </Figure>
  );
}

/** The legend of sentiment colours, in words. */
export function SentimentLegend() {
  return (
    <ul className="legend">
      {(Object.keys(SENTIMENT_COLOURS) as Array<keyof typeof SENTIMENT_COLOURS>).map((name) => (
        <li key={name}>
          <span className="swatch" style={{ background: SENTIMENT_COLOURS[name] }} aria-hidden="true" />
          {name === 'neutral' ? 'Neutral or not known' : name.charAt(0).toUpperCase() + name.slice(1)}
        </li>
      ))}
    </ul>
  );
}
