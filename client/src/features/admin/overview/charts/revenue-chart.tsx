import type { CurrencyFigures } from '@shared/dashboard';
import { formatMoney } from '@shared/money';
import { useId } from 'react';
import { ChartData } from './chart-data';
import { axisMoney, barSlots, labelledIndexes, shortDay, valueScale, yOf } from './chart-scale';
import { useWidth } from './use-width';

const HEIGHT = 180;
const AXIS = 22; // room under the bars for the day labels
const LEFT = 72; // room for the value labels (axisMoney keeps them short)

/**
 * Revenue per shop day for one currency as columns, drawn by hand (decision 0041 "Charts"): an SVG image with
 * its title and a description of what it shows, and the same figures as a table under it.
 */
export function RevenueChart({ figures }: { figures: CurrencyFigures }) {
  const id = useId();
  const { ref, width } = useWidth<HTMLDivElement>();
  const days = figures.revenueByDay;
  const currency = figures.currency;
  const money = (minor: number) => formatMoney(minor, currency);
  const scale = valueScale(Math.max(0, ...days.map((d) => d.revenueMinor)));
  const plotWidth = Math.max(40, width - LEFT - 4);
  const slots = barSlots(days.length, plotWidth);
  const labelled = new Set(labelledIndexes(days.length, plotWidth));
  const best = days.reduce<(typeof days)[number] | null>(
    (top, d) => (d.revenueMinor > (top?.revenueMinor ?? 0) ? d : top),
    null,
  );
  const title = `Revenue per day, ${currency.toUpperCase()}`;
  const description =
    days.length === 0
      ? 'No days in the period.'
      : `${days.length} ${days.length === 1 ? 'day' : 'days'} from ${shortDay(days[0]?.day ?? '')} to ${shortDay(
          days[days.length - 1]?.day ?? '',
        )}: ${money(figures.revenueMinor)} in all. ${
          best
            ? `The best day was ${shortDay(best.day)} with ${money(best.revenueMinor)}.`
            : 'No revenue yet.'
        }`;
  return (
    <div className="mt-4" data-testid={`revenue-chart-${currency}`}>
      <div ref={ref} className="w-full">
        <svg
          width={width}
          height={HEIGHT + AXIS}
          role="img"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-desc`}
          className="block max-w-full text-ink"
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          {scale.ticks.map((tick) => {
            const y = yOf(tick, scale, HEIGHT - 8) + 8;
            return (
              <g key={tick}>
                <line x1={LEFT} x2={width} y1={y} y2={y} className="stroke-stone-line" strokeWidth="1" />
                <text x={LEFT - 6} y={y} dy="0.32em" textAnchor="end" className="fill-muted text-[11px]">
                  {axisMoney(tick, currency)}
                </text>
              </g>
            );
          })}
          {days.map((d, i) => {
            const slot = slots[i];
            if (!slot) return null;
            const y = yOf(d.revenueMinor, scale, HEIGHT - 8) + 8;
            return (
              <g key={d.day}>
                <rect x={LEFT + slot.x} y={y} width={slot.width} height={HEIGHT - y} className="fill-maroon">
                  <title>{`${shortDay(d.day)}: ${money(d.revenueMinor)}`}</title>
                </rect>
                {labelled.has(i) ? (
                  <text
                    x={LEFT + slot.x + slot.width / 2}
                    y={HEIGHT + 15}
                    textAnchor="middle"
                    className="fill-muted text-[11px]"
                  >
                    {shortDay(d.day)}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
      </div>
      <ChartData
        caption={`${title}: the chart's figures`}
        headers={['Day', 'Revenue', 'Orders']}
        rows={days.map((d) => ({ key: d.day, cells: [shortDay(d.day), money(d.revenueMinor), d.orders] }))}
        testId={`revenue-data-${currency}`}
      />
    </div>
  );
}
