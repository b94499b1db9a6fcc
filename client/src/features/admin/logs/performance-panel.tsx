import {
  formatVital,
  VITAL_NAMES,
  VITAL_THRESHOLDS,
  type VitalName,
  type VitalRating,
} from '@shared/web-vitals';
import { useState } from 'react';
import { type Column, DataTable } from '../../../components/admin/data-table';
import { usePerformanceSummary, type VitalRow } from './use-logs';

const RATING_LABEL: Record<VitalRating, string> = {
  good: 'Good',
  'needs-improvement': 'Needs improvement',
  poor: 'Poor',
};
const RATING_STYLE: Record<VitalRating, string> = {
  good: 'bg-emerald-100 text-emerald-900',
  'needs-improvement': 'bg-amber-100 text-amber-900',
  poor: 'bg-red-100 text-red-900',
};
const TREND_LABEL = { improving: '↓ Improving', degrading: '↑ Degrading', stable: '→ Stable' } as const;
const METRIC_TITLE: Record<VitalName, string> = {
  LCP: 'Largest Contentful Paint',
  INP: 'Interaction to Next Paint',
  CLS: 'Cumulative Layout Shift',
  FCP: 'First Contentful Paint',
  TTFB: 'Time to First Byte',
};

type DayPoint = { date: string; p75: number | null; samples: number };

/** Daily p75 over 14 days as an inline SVG line, with the good and poor thresholds as dashed lines. */
function TrendChart({ metric, days }: { metric: VitalName; days: DayPoint[] }) {
  const width = 280;
  const height = 70;
  const t = VITAL_THRESHOLDS[metric];
  const values = days.map((d) => d.p75).filter((v): v is number => v !== null);
  const max = Math.max(t.poor * 1.1, ...values);
  const x = (i: number) => (i / Math.max(1, days.length - 1)) * (width - 8) + 4;
  const y = (v: number) => height - 4 - (v / max) * (height - 8);
  const points = days
    .map((d, i) => (d.p75 === null ? null : `${x(i).toFixed(1)},${y(d.p75).toFixed(1)}`))
    .filter((p): p is string => p !== null);
  const label = `${metric} p75 per day over the last 14 days: ${
    values.length
      ? days.map((d) => (d.p75 === null ? 'no data' : formatVital(metric, d.p75))).join(', ')
      : 'no data'
  }`;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      className="h-[70px] w-full max-w-[280px]"
      role="img"
      aria-label={label}
    >
      <line
        x1="0"
        x2={width}
        y1={y(t.good)}
        y2={y(t.good)}
        className="stroke-emerald-600"
        strokeDasharray="3 3"
      />
      <line
        x1="0"
        x2={width}
        y1={y(t.poor)}
        y2={y(t.poor)}
        className="stroke-red-600"
        strokeDasharray="3 3"
      />
      {points.length > 1 ? (
        <polyline points={points.join(' ')} fill="none" className="stroke-maroon" strokeWidth="2" />
      ) : null}
      {points.map((p) => {
        const [cx, cy] = p.split(',');
        return <circle key={p} cx={cx} cy={cy} r="2.5" className="fill-maroon" />;
      })}
    </svg>
  );
}

/** On phones the table keeps what decides (p75, samples, rating, trend) and drops the spread. */
const PHONE_HIDDEN = 'hidden sm:table-cell';

function vitalColumns(metric: VitalName): Array<Column<VitalRow>> {
  return [
    {
      id: 'route',
      header: 'Route',
      cellClassName: 'font-mono text-xs',
      cell: (r) => r.route ?? 'All routes',
    },
    { id: 'p75', header: 'p75', cellClassName: 'tabular-nums', cell: (r) => formatVital(metric, r.p75) },
    {
      id: 'average',
      header: 'Average',
      headerClassName: PHONE_HIDDEN,
      cellClassName: `${PHONE_HIDDEN} tabular-nums`,
      cell: (r) => formatVital(metric, r.average),
    },
    {
      id: 'best',
      header: 'Best',
      headerClassName: PHONE_HIDDEN,
      cellClassName: `${PHONE_HIDDEN} tabular-nums`,
      cell: (r) => formatVital(metric, r.best),
    },
    {
      id: 'worst',
      header: 'Worst',
      headerClassName: PHONE_HIDDEN,
      cellClassName: `${PHONE_HIDDEN} tabular-nums`,
      cell: (r) => formatVital(metric, r.worst),
    },
    { id: 'samples', header: 'Samples', cellClassName: 'tabular-nums', cell: (r) => r.samples },
    {
      id: 'rating',
      header: 'Rating',
      cell: (r) => (
        <span className={`rounded-full px-2 py-0.5 text-xs ${RATING_STYLE[r.rating]}`}>
          {RATING_LABEL[r.rating]}
        </span>
      ),
    },
    {
      id: 'trend',
      header: 'Trend',
      cellClassName: 'sm:whitespace-nowrap',
      cell: (r) => (r.trend ? TREND_LABEL[r.trend] : <span className="text-muted">Not enough data</span>),
    },
  ];
}

/** Real-user performance from the storefront (web vitals): per metric and route pattern. */
export function PerformancePanel() {
  const [days, setDays] = useState<7 | 30>(7);
  const summary = usePerformanceSummary(days);
  const rows = summary.data?.rows ?? [];

  return (
    <section aria-labelledby="performance-heading" className="mt-12" data-testid="performance">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="performance-heading" className="font-serif text-2xl">
          Performance
        </h2>
        <div className="flex items-center gap-3 text-sm">
          <label className="flex items-center gap-2">
            <span>Period</span>
            <select
              value={days}
              onChange={(e) => setDays(e.target.value === '30' ? 30 : 7)}
              className="rounded-lg border border-stone-line bg-white px-2 py-1.5"
            >
              <option value="7">Last 7 days</option>
              <option value="30">Last 30 days</option>
            </select>
          </label>
          <button
            type="button"
            className="text-maroon hover:underline"
            onClick={() => void summary.refetch()}
          >
            Refresh
          </button>
        </div>
      </div>
      <p className="mt-1 text-sm text-muted">
        Measured in shoppers' browsers (a sample of page loads). p75 is what 3 in 4 visits were at least as
        good as; the trend compares the last 7 days with the 7 before.
      </p>
      {summary.isPending ? (
        <div className="skeleton mt-6 h-24 rounded" aria-hidden="true" />
      ) : rows.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-stone-line p-6 text-sm text-muted">
          No performance data yet.
        </p>
      ) : (
        <div className="mt-6 space-y-8">
          {VITAL_NAMES.map((metric) => {
            const ofMetric = rows.filter((r) => r.metric === metric);
            if (ofMetric.length === 0) return null;
            const daily = summary.data?.daily.find((d) => d.metric === metric)?.days ?? [];
            const t = VITAL_THRESHOLDS[metric];
            return (
              <div key={metric} data-testid={`vital-${metric}`}>
                {/* Phones: the chart goes under its heading, not squeezed into a corner beside it. */}
                <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between sm:gap-4">
                  <div>
                    <h3 className="font-medium">
                      {metric} <span className="font-normal text-muted">· {METRIC_TITLE[metric]}</span>
                    </h3>
                    <p className="text-xs text-muted">
                      Good ≤ {formatVital(metric, t.good)}, poor &gt; {formatVital(metric, t.poor)}
                    </p>
                  </div>
                  <TrendChart metric={metric} days={daily} />
                </div>
                <div className="mt-2">
                  <DataTable
                    label={`${metric} by route`}
                    columns={vitalColumns(metric)}
                    rows={ofMetric}
                    rowKey={(r) => r.route ?? '*'}
                    rowTestId="vital-row"
                    empty={null}
                  />
                </div>
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
