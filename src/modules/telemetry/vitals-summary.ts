import { rateVital, VITAL_NAMES, type VitalName, type VitalRating } from '../../shared/web-vitals.js';
import type { VitalSample } from './vitals.repository.js';

export type Trend = 'improving' | 'degrading' | 'stable';

export type VitalStats = {
  metric: VitalName;
  /** A route pattern, or null for every route together. */
  route: string | null;
  samples: number;
  p75: number;
  average: number;
  best: number;
  worst: number;
  rating: VitalRating;
  /** Last 7 days against the 7 before; null when either week has fewer than MIN_TREND_SAMPLES. */
  trend: Trend | null;
};

export type VitalsSummary = {
  /** The period the statistics cover, in days back from now. */
  days: number;
  rows: VitalStats[];
  /** Per metric, p75 per day over the last 14 days (null for days without samples), oldest first. */
  daily: { metric: VitalName; days: { date: string; p75: number | null; samples: number }[] }[];
};

const DAY = 86_400_000;
export const MIN_TREND_SAMPLES = 5;
/** A change smaller than this share of the earlier p75 counts as stable. */
const TREND_TOLERANCE = 0.1;

/** The 75th percentile as web-vitals tooling reports it: the value at rank ceil(0.75 n) of the sorted sample. */
export function p75(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.75) - 1)] ?? 0;
}

export function trendOf(current: number[], previous: number[]): Trend | null {
  if (current.length < MIN_TREND_SAMPLES || previous.length < MIN_TREND_SAMPLES) return null;
  const now = p75(current);
  const before = p75(previous);
  if (before === 0) return now === 0 ? 'stable' : 'degrading';
  const change = (now - before) / before;
  // Every metric here is better when lower.
  return change <= -TREND_TOLERANCE ? 'improving' : change >= TREND_TOLERANCE ? 'degrading' : 'stable';
}

function stats(metric: VitalName, route: string | null, all: VitalSample[], now: Date, days: number) {
  const t = now.getTime();
  const inPeriod = all.filter((s) => t - Date.parse(s.time) < days * DAY).map((s) => s.value);
  if (inPeriod.length === 0) return null;
  const lastWeek = all.filter((s) => t - Date.parse(s.time) < 7 * DAY).map((s) => s.value);
  const weekBefore = all
    .filter((s) => t - Date.parse(s.time) >= 7 * DAY && t - Date.parse(s.time) < 14 * DAY)
    .map((s) => s.value);
  const value = p75(inPeriod);
  return {
    metric,
    route,
    samples: inPeriod.length,
    p75: value,
    average: inPeriod.reduce((a, b) => a + b, 0) / inPeriod.length,
    best: inPeriod.reduce((a, b) => Math.min(a, b)),
    worst: inPeriod.reduce((a, b) => Math.max(a, b)),
    rating: rateVital(metric, value),
    trend: trendOf(lastWeek, weekBefore),
  } satisfies VitalStats;
}

/** Statistics per metric (all routes, then each route pattern) and a 14-day daily p75 series per metric. */
export function summarizeVitals(samples: VitalSample[], now: Date, days: number): VitalsSummary {
  const rows: VitalStats[] = [];
  const daily: VitalsSummary['daily'] = [];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (const metric of VITAL_NAMES) {
    const ofMetric = samples.filter((s) => s.metric === metric);
    const overall = stats(metric, null, ofMetric, now, days);
    if (overall) rows.push(overall);
    const routes = [...new Set(ofMetric.map((s) => s.route))].sort();
    for (const route of routes) {
      const row = stats(
        metric,
        route,
        ofMetric.filter((s) => s.route === route),
        now,
        days,
      );
      if (row) rows.push(row);
    }
    const series = [];
    for (let i = 13; i >= 0; i--) {
      const start = today - i * DAY;
      const values = ofMetric
        .filter((s) => {
          const ms = Date.parse(s.time);
          return ms >= start && ms < start + DAY;
        })
        .map((s) => s.value);
      series.push({
        date: new Date(start).toISOString().slice(0, 10),
        p75: values.length ? p75(values) : null,
        samples: values.length,
      });
    }
    daily.push({ metric, days: series });
  }
  return { days, rows, daily };
}
