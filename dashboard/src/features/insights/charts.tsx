import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Chart colours: each at least 3:1 against white (WCAG non-text contrast), told apart by the legend too. */
export const SENTIMENT_COLOURS = { negative: '#b4232a', neutral: '#5f6b7d', positive: '#1a7f37' } as const;
const BAR = '#1549b3';
const PREVIOUS = '#8aa4d6';

const number = new Intl.NumberFormat();

/**
 * An SVG chart that screen readers announce by its title, with a description of what it shows. It is drawn
 * at the width it is shown at (so its text keeps its size on a phone); `draw` gets that width.
 */
function Figure({
  title,
  description,
  height,
  draw,
}: {
  title: string;
  description: string;
  height: number;
  draw: (width: number) => ReactNode;
}) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const measure = () => setWidth(Math.max(240, Math.round(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box}>
      <svg
        className="chart"
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
      >
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{description}</desc>
        {draw(width)}
      </svg>
    </div>
  );
}

/** The top of a value axis: a round number at or above `max`, so the gridlines fall on whole figures. */
function axisTop(max: number): number {
  if (max <= 10) return Math.max(2, max + (max % 2));
  const unit = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].map((factor) => (factor * unit) / 10).find((candidate) => max / candidate <= 10) ?? unit;
  return Math.ceil(max / (2 * step)) * 2 * step;
}

export interface StackedPoint {
  label: string;
  parts: Array<{ name: keyof typeof SENTIMENT_COLOURS; value: number }>;
}

/** Bars over time, each stacked by sentiment (negative at the bottom), with a few gridlines and dates. */
export function StackedBars({ title, points }: { title: string; points: StackedPoint[] }) {
  const height = 240;
  const left = 40;
  const bottom = 24;
  const top = 8;
  const totals = points.map((point) => point.parts.reduce((sum, part) => sum + part.value, 0));
  const max = axisTop(Math.max(0, ...totals));
  const scale = (value: number) => (value / max) * (height - top - bottom);
  const busiest = totals.indexOf(Math.max(...totals));
  const description =
    points.length === 0
      ? 'No points.'
      : `${points.length} points from ${points[0].label} to ${points[points.length - 1].label}, ${number.format(totals.reduce((a, b) => a + b, 0))} items in all; the most, ${number.format(totals[busiest])}, on ${points[busiest].label}.`;
  return (
    <Figure
      title={title}
      description={description}
      height={height}
      draw={(width) => {
        const step = (width - left) / Math.max(1, points.length);
        // About one date label per 80 pixels.
        const labelEvery = Math.max(1, Math.ceil(points.length / Math.max(1, Math.floor((width - left) / 80))));
        return (
          <>
            {[0, max / 2, max].map((tick) => {
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
                    return (
                      <rect
                        key={part.name}
                        x={x}
                        y={y}
                        width={step * 0.7}
                        height={h}
                        fill={SENTIMENT_COLOURS[part.name]}
                      />
                    );
                  })}
                  {index % labelEvery === 0 && (
                    <text x={x + step * 0.35} y={height - 6} textAnchor="middle" className="axis">
                      {point.label}
                    </text>
                  )}
                </g>
              );
            })}
          </>
        );
      }}
    />
  );
}

/** One bar split into the shares of its parts, each labelled with its percentage. */
export function ShareBar({
  title,
  parts,
}: {
  title: string;
  parts: Array<{ name: keyof typeof SENTIMENT_COLOURS; label: string; value: number }>;
}) {
  const height = 40;
  const total = parts.reduce((sum, part) => sum + part.value, 0);
  const percent = (value: number) => (total === 0 ? 0 : Math.round((value / total) * 100));
  return (
    <Figure
      title={title}
      description={parts
        .map((part) => `${part.label} ${percent(part.value)}% (${number.format(part.value)})`)
        .join(', ')}
      height={height}
      draw={(width) => {
        let x = 0;
        return parts.map((part) => {
          const w = total === 0 ? 0 : (part.value / total) * width;
          const at = x;
          x += w;
          return (
            <g key={part.name}>
              <rect x={at} y={0} width={w} height={height} fill={SENTIMENT_COLOURS[part.name]} />
              {w > 44 && (
                <text x={at + w / 2} y={height / 2 + 5} textAnchor="middle" className="on-colour">
                  {percent(part.value)}%
                </text>
              )}
            </g>
          );
        });
      }}
    />
  );
}

/**
 * Horizontal bars, largest first, each with its name and figure; with `previous`, a thinner bar below each
 * shows the period before, so the trend reads at a glance.
 */
export function BarList({
  title,
  rows,
}: {
  title: string;
  rows: Array<{ label: string; value: number; previous?: number; note?: string }>;
}) {
  const rowHeight = rows.some((row) => row.previous !== undefined) ? 40 : 28;
  const height = Math.max(rowHeight, rows.length * rowHeight);
  const max = Math.max(1, ...rows.map((row) => Math.max(row.value, row.previous ?? 0)));
  return (
    <Figure
      title={title}
      description={
        rows
          .map(
            (row) =>
              `${row.label}: ${number.format(row.value)}${row.previous !== undefined ? ` (before: ${number.format(row.previous)})` : ''}`,
          )
          .join('; ') || 'Nothing to show.'
      }
      height={height}
      draw={(width) => {
        const labelWidth = Math.min(220, Math.round(width * 0.4));
        // About 7 pixels a character at 13px.
        const characters = Math.floor((labelWidth - 8) / 7);
        const scale = (value: number) => (value / max) * (width - labelWidth - 90);
        return rows.map((row, index) => {
          const y = index * rowHeight;
          return (
            <g key={row.label}>
              <text x={labelWidth - 8} y={y + 17} textAnchor="end" className="label">
                {row.label.length > characters ? `${row.label.slice(0, characters - 1)}…` : row.label}
              </text>
              <rect x={labelWidth} y={y + 4} width={scale(row.value)} height={18} fill={BAR} />
              <text x={labelWidth + scale(row.value) + 6} y={y + 17} className="label">
                {number.format(row.value)}
                {row.note ? ` ${row.note}` : ''}
              </text>
              {row.previous !== undefined && (
                <rect x={labelWidth} y={y + 25} width={scale(row.previous)} height={8} fill={PREVIOUS} />
              )}
            </g>
          );
        });
      }}
    />
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
