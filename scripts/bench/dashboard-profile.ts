/**
 * The dashboard's queries one by one, on a store kept by `npm run bench:dashboard -- --keep`: each part of
 * each procedure timed alone (median of 5 after a warm-up), to see which query a slow procedure waits on.
 * The store is migrated first, so a new index is measured on the same data.
 *
 *   npx tsx scripts/bench/dashboard-profile.ts --sqlite-dir DIR
 *   npx tsx scripts/bench/dashboard-profile.ts --postgres-url URL
 */
import { parseArgs } from 'node:util';
import { lineSales, returnsAsked } from '../../src/modules/dashboard/period-breakdowns.js';
import { periodFigures } from '../../src/modules/dashboard/period-figures.js';
import { sellThrough } from '../../src/modules/dashboard/sell-through.js';
import { storefrontHealth } from '../../src/modules/dashboard/storefront-health.js';
import { refreshSummary } from '../../src/modules/dashboard/summary-refresh.js';
import { todayCounts } from '../../src/modules/dashboard/today-counts.js';
import type { DashboardPeriodInput } from '../../src/shared/dashboard.js';
import { resolvePeriod } from '../../src/shared/dashboard-period.js';
import { NOW, openKeptStore, ZONE } from './dashboard-bench-store.js';

const { values: args } = parseArgs({
  options: {
    'sqlite-dir': { type: 'string' },
    'postgres-url': { type: 'string' },
  },
});
const { db, close } = await openKeptStore(
  { sqliteDir: args['sqlite-dir'], postgresUrl: args['postgres-url'] },
  4,
);

async function time(name: string, part: () => Promise<unknown>): Promise<void> {
  await part();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await part();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(44)}${(times[2] ?? 0).toFixed(1).padStart(9)} ms`);
}

const product = await db
  .selectFrom('order_lines as l')
  .innerJoin('size_stock as s', 's.product_id', 'l.product_id')
  .select(['l.product_id', (eb) => eb.fn.sum<number>('l.quantity').as('units')])
  .groupBy('l.product_id')
  .orderBy('units', 'desc')
  .limit(1)
  .executeTakeFirstOrThrow();

// The summaries summed once (a cold store: all of them), so the parts below read them as a warm store does.
const cold = performance.now();
await refreshSummary(db, ZONE);
console.log(
  `${'refreshSummary (first read)'.padEnd(44)}${(performance.now() - cold).toFixed(1).padStart(9)} ms`,
);
await time('refreshSummary (nothing marked)', () => refreshSummary(db, ZONE));
await time('todayCounts', () => todayCounts(db, 2));
const inputs: Array<[string, DashboardPeriodInput]> = [
  ['today', { preset: 'today' }],
  ['30d', { preset: '30d' }],
  ['custom 366', { preset: 'custom', from: '2025-11-28', to: '2026-11-28' }],
];
for (const [label, input] of inputs) {
  const { range, previous } = resolvePeriod(input, NOW, ZONE);
  await time(`${label}: periodFigures (+ payment mix, customers)`, () => periodFigures(db, range, previous));
  await time(`${label}: returnsAsked ×2`, async () => {
    await returnsAsked(db, range);
    await returnsAsked(db, previous);
  });
  await time(`${label}: lineSales (top items)`, () => lineSales(db, range));
  await time(`${label}: sellThrough catalogue`, () =>
    sellThrough(db, { productId: null, range, reorderPieces: 100 }),
  );
  await time(`${label}: sellThrough product`, () =>
    sellThrough(db, { productId: product.product_id, range, reorderPieces: 100 }),
  );
  await time(`${label}: storefrontHealth`, () => storefrontHealth(db, range));
}
await close();
