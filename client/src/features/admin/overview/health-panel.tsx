import type { DashboardPeriodInput } from '@shared/dashboard';
import { formatVital, rateVital, type VitalName, type VitalRating } from '@shared/web-vitals';
import { useId } from 'react';
import { Link } from 'wouter';
import { paths } from '../../../lib/paths';
import { useHealth } from './use-overview';

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
const METRIC_TITLE: Record<VitalName, string> = {
  LCP: 'Largest Contentful Paint',
  INP: 'Interaction to Next Paint',
  CLS: 'Cumulative Layout Shift',
  FCP: 'First Contentful Paint',
  TTFB: 'Time to First Byte',
};

/** Storefront health (the owner's): real shoppers' Core Web Vitals at p75 and the log's errors. */
export function HealthPanel({ period }: { period: DashboardPeriodInput }) {
  const headingId = useId();
  const health = useHealth(period, true);
  return (
    <section aria-labelledby={headingId} className="mt-10" data-testid="health">
      <h2 id={headingId} className="font-serif text-2xl">
        Storefront health
      </h2>
      {health.isError ? (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          Could not load the storefront's health: {health.error.message}
        </p>
      ) : null}
      {health.data ? (
        <>
          <ul className="mt-3 grid gap-3 min-[420px]:grid-cols-2 lg:grid-cols-3">
            {health.data.vitals.map((v) => {
              const rating = v.p75 === null ? null : rateVital(v.metric, v.p75);
              return (
                <li
                  key={v.metric}
                  className="rounded-xl border border-stone-line p-3"
                  data-testid={`vital-${v.metric}`}
                >
                  <p className="text-sm text-muted">
                    <abbr title={METRIC_TITLE[v.metric]}>{v.metric}</abbr>, 75th percentile
                  </p>
                  <p className="mt-1 text-2xl tabular-nums">
                    {v.p75 === null ? '—' : formatVital(v.metric, v.p75)}
                  </p>
                  <p className="mt-1 text-xs">
                    {rating ? (
                      <span className={`rounded-full px-2 py-0.5 ${RATING_STYLE[rating]}`}>
                        {RATING_LABEL[rating]}
                      </span>
                    ) : (
                      <span className="text-muted">No samples</span>
                    )}{' '}
                    <span className="text-muted">
                      {v.samples} {v.samples === 1 ? 'sample' : 'samples'}
                    </span>
                  </p>
                </li>
              );
            })}
          </ul>
          <p className="mt-4 text-sm" data-testid="health-errors">
            <span className="tabular-nums">{health.data.errors}</span>{' '}
            {health.data.errors === 1 ? 'error' : 'errors'} logged in the period.{' '}
            <Link href={paths.adminLogs('error')} className="text-maroon underline">
              See the errors in the log
            </Link>
          </p>
        </>
      ) : (
        <div className="skeleton mt-4 h-24 rounded" aria-hidden="true" />
      )}
    </section>
  );
}
