/**
 * Horizontal bars in plain SVG (no chart library): one row per key, its value as a bar and as text, so the
 * figures read without hovering. The whole chart is one labelled image; each bar names itself for a hover.
 */
import { memo } from 'react';

export interface Bar {
  readonly key: string;
  readonly value: number;
  /** The figure as text beside the bar. */
  readonly text: string;
  /** The long form (how the cost is known). */
  readonly detail: string;
}

const ROW = 26;
const LABEL = 170;
const TEXT = 150;
/** Room kept between a label's start and the chart's left edge. */
const LABEL_MARGIN = 4;
/** Labels are drawn at the chart's font size (statistics.css), in the chart's own units. */
const LABEL_FONT_PX = 12;

let meter: CanvasRenderingContext2D | null | undefined;

/** A canvas context to measure labels in the page's font; null where there is none (a DOM without canvas). */
function labelMeter(): CanvasRenderingContext2D | null {
  if (meter === undefined) {
    meter = null;
    try {
      const ctx = document.createElement('canvas').getContext('2d');
      if (ctx !== null && typeof ctx.measureText('x').width === 'number') {
        ctx.font = `${LABEL_FONT_PX}px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
        meter = ctx;
      }
    } catch {
      meter = null;
    }
  }
  return meter;
}

/**
 * The label whole, or cut with "…" to `room` as the font measures it: cut at 24 characters by count,
 * "claude-sonnet-4-5-20250…" ran past the chart's left edge, its first letter cut off. Without a canvas, the count.
 */
function fitLabel(text: string, room: number): string {
  const ctx = labelMeter();
  if (ctx === null) return text.length > 24 ? `${text.slice(0, 23)}…` : text;
  if (ctx.measureText(text).width <= room) return text;
  let keep = text.length - 1;
  while (keep > 1 && ctx.measureText(`${text.slice(0, keep).trimEnd()}…`).width > room) keep--;
  return `${text.slice(0, keep).trimEnd()}…`;
}

export const BarChart = memo(function BarChart({ title, bars, width = 640 }: { readonly title: string; readonly bars: readonly Bar[]; readonly width?: number }) {
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  const track = Math.max(40, width - LABEL - TEXT);
  const height = Math.max(ROW, bars.length * ROW);
  const summary = bars.map((bar) => `${bar.key}: ${bar.text}`).join('; ');
  return (
    <figure className="stats-chart">
      <figcaption className="stats-chart__title">{title}</figcaption>
      {bars.length === 0 ? (
        <p className="stats-empty">Nothing in this range.</p>
      ) : (
        <svg className="stats-chart__svg" role="img" aria-label={`${title}: ${summary}`} width="100%" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="xMinYMin meet">
          {bars.map((bar, index) => {
            const y = index * ROW;
            const length = max === 0 ? 0 : Math.max(bar.value > 0 ? 2 : 0, (bar.value / max) * track);
            return (
              <g key={bar.key} className="stats-bar" data-testid="stats-bar">
                <title>{`${bar.key}: ${bar.detail}`}</title>
                <text className="stats-bar__label" x={LABEL - 8} y={y + ROW / 2} textAnchor="end" dominantBaseline="central">
                  {fitLabel(bar.key, LABEL - 8 - LABEL_MARGIN)}
                </text>
                <rect className="stats-bar__track" x={LABEL} y={y + 5} width={track} height={ROW - 10} rx={3} />
                <rect className="stats-bar__value" x={LABEL} y={y + 5} width={length} height={ROW - 10} rx={3} />
                <text className="stats-bar__text" x={LABEL + track + 8} y={y + ROW / 2} dominantBaseline="central">
                  {bar.text}
                </text>
              </g>
            );
          })}
        </svg>
      )}
    </figure>
  );
});
