import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/seeded-random.js';
import type { DashboardPeriodInput, PeriodRange } from '../../shared/dashboard.js';
import { resolvePeriod } from '../../shared/dashboard-period.js';
import { VITAL_NAMES, type VitalName } from '../../shared/web-vitals.js';
import { ownerSession as owner } from '../../test-support/orders.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { SORTED_AT_MOST } from './storefront-health.js';

/**
 * admin.dashboard.health over thousands of samples, held to the nearest-rank p75 worked out in JS, for a
 * year and for 30 days: the counts straddle SORTED_AT_MOST, so SQLite answers both by sorting the period's
 * samples and by walking a metric's values in order (migration 0037), and PostgreSQL by what its planner
 * picks. Values come in steps, so ties abound; outliers sit a millisecond before each period and at its end.
 */
const ZONE = 'Asia/Karachi';
const NOW = new Date('2026-11-29T10:00:00.000Z');
const clock = { now: () => NOW };
const YEAR: DashboardPeriodInput = { preset: 'custom', from: '2025-11-28', to: '2026-11-28' };
const MONTH: DashboardPeriodInput = { preset: '30d' };
const year = resolvePeriod(YEAR, NOW, ZONE).range;
const month = resolvePeriod(MONTH, NOW, ZONE).range;

type Sample = { metric: VitalName; value: number; time: string };

function samplesIn(
  random: () => number,
  metric: VitalName,
  count: number,
  range: PeriodRange,
  value: () => number,
): Sample[] {
  const start = Date.parse(range.startsAt);
  const span = Date.parse(range.endsAt) - start;
  return Array.from({ length: count }, () => ({
    metric,
    value: value(),
    time: new Date(start + Math.floor(random() * span)).toISOString(),
  }));
}

/**
 * Samples a millisecond before the range and at its end (excluded), far below and far above any inside:
 * OUTLIERS of each, more than the longest run of ties, so one taken in would move the p75 to another value.
 */
const OUTLIERS = 100;
function justOutside(metric: VitalName, range: PeriodRange): Sample[] {
  const before = new Date(Date.parse(range.startsAt) - 1).toISOString();
  return [before, range.endsAt].flatMap((time) =>
    [0, 1e9].flatMap((value) => Array.from({ length: OUTLIERS }, () => ({ metric, value, time }))),
  );
}

function nearestRankP75(samples: readonly Sample[], metric: VitalName, range: PeriodRange) {
  const values = samples
    .filter((s) => s.metric === metric && s.time >= range.startsAt && s.time < range.endsAt)
    .map((s) => s.value)
    .sort((a, b) => a - b);
  return { metric, p75: values[Math.ceil(0.75 * values.length) - 1] ?? null, samples: values.length };
}

describe('admin.dashboard.health p75 over many samples', () => {
  let store: TestStore;
  const random = mulberry32(44);
  const stepOf = (step: number, steps: number) => () => Math.floor(random() * steps) * step;
  const samples: Sample[] = [
    // Across the year: the year's count above SORTED_AT_MOST, the month's below it.
    ...samplesIn(random, 'LCP', 3_000, year, stepOf(50, 80)),
    // Within the 30 days: both counts above it.
    ...samplesIn(random, 'INP', 2_400, month, stepOf(8, 60)),
    // One above it, in fractions; and exactly at it, still sorted: the 30 days' outliers before them are
    // inside the year too.
    ...samplesIn(random, 'CLS', SORTED_AT_MOST + 1 - 2 * OUTLIERS, year, stepOf(0.01, 40)),
    ...samplesIn(random, 'FCP', SORTED_AT_MOST - 2 * OUTLIERS, year, stepOf(25, 30)),
    ...(['LCP', 'INP', 'CLS', 'FCP'] as const).flatMap((metric) => [
      ...justOutside(metric, year),
      ...justOutside(metric, month),
    ]),
    // TTFB: only before the year and after the 30 days, in neither.
    ...justOutside('TTFB', year).slice(0, 2 * OUTLIERS),
    ...justOutside('TTFB', month).slice(2 * OUTLIERS),
  ];

  beforeAll(async () => {
    store = await createTestStore();
    const db = store.handle.db;
    await db.updateTable('settings').set({ time_zone: ZONE }).where('id', '=', 1).execute();
    for (let i = 0; i < samples.length; i += 1_000)
      await db
        .insertInto('web_vitals')
        .values(samples.slice(i, i + 1_000).map((s) => ({ ...s, route: '/', navigation_type: null })))
        .execute();
  });
  afterAll(async () => store.cleanup());

  it.each([
    ['a year', YEAR, year],
    ['30 days', MONTH, month],
  ])('answers %s as the p75 by nearest rank in JS', async (_, input, range) => {
    const health = await store.caller({ admin: owner, clock }).admin.dashboard.health(input);
    expect(health.range).toEqual(range);
    expect(health.vitals).toEqual(VITAL_NAMES.map((metric) => nearestRankP75(samples, metric, range)));
  });

  it('holds counts on both sides of SORTED_AT_MOST, and at it', () => {
    const counts = [year, month].flatMap((range) =>
      VITAL_NAMES.map((metric) => nearestRankP75(samples, metric, range).samples),
    );
    expect(counts.filter((n) => n > SORTED_AT_MOST).length).toBeGreaterThanOrEqual(3);
    expect(counts.filter((n) => n > 0 && n <= SORTED_AT_MOST).length).toBeGreaterThanOrEqual(3);
    expect(counts).toContain(SORTED_AT_MOST);
    expect(counts).toContain(SORTED_AT_MOST + 1);
    expect(counts).toContain(0);
  });
});
