import type { SizeSellThrough } from '@shared/dashboard';
import { useId } from 'react';
import { ChartData } from './chart-data';
import { percent, sizeLine } from './chart-scale';
import { useWidth } from './use-width';

const ROW = 40; // a line of text, then the bar under it
const BAR = 12;

/**
 * Sell-through per size, drawn by hand (decision 0041 "Charts"): one bar a size, its length the share of what
 * there was to sell that sold, the words above it, and the figures (with the reorder mix) as a table.
 */
export function SizeBars({ sizes, label }: { sizes: SizeSellThrough[]; label: string }) {
  const id = useId();
  const { ref, width } = useWidth<HTMLDivElement>();
  const track = Math.max(40, width - 2);
  const title = `Sell-through per size, ${label}`;
  const description = sizes.length === 0 ? 'No sizes to show.' : `${sizes.map(sizeLine).join('. ')}.`;
  return (
    <div className="mt-4" data-testid="size-chart">
      <div ref={ref} className="w-full">
        <svg
          width={width}
          height={Math.max(1, sizes.length) * ROW}
          role="img"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-desc`}
          className="block max-w-full"
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          {sizes.map((size, i) => {
            const top = i * ROW;
            const filled = Math.round((size.rate ?? 0) * track);
            return (
              <g key={size.size}>
                <text x={0} y={top + 14} className="fill-ink text-[12px]">
                  {sizeLine(size)}
                </text>
                <rect
                  x={0}
                  y={top + 20}
                  width={track}
                  height={BAR}
                  rx={2}
                  className="fill-sand stroke-stone-line"
                />
                {filled > 0 ? (
                  <rect x={0} y={top + 20} width={filled} height={BAR} rx={2} className="fill-maroon" />
                ) : null}
              </g>
            );
          })}
        </svg>
      </div>
      <ChartData
        caption={`${title}: the chart's figures and the suggested reorder`}
        headers={['Size', 'Sold', 'On hand', 'Sell-through', 'Reorder']}
        rows={sizes.map((s) => ({
          key: s.size,
          cells: [s.size, s.sold, s.onHand, percent(s.rate), s.reorder],
        }))}
        testId="size-data"
      />
    </div>
  );
}
