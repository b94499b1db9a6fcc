/**
 * The statements of one payment's refresh (summary-refresh.ts sumMarkedDays, the keeper's and the read's
 * step), each timed, on a store kept by `npm run bench:dashboard -- --keep`: which of them a read right after a
 * payment waits on. Pays `--runs` unpaid orders one by one (each summed alone), then puts them back.
 *
 *   npx tsx scripts/bench/dashboard-refresh-profile.ts --sqlite-dir DIR
 *   npx tsx scripts/bench/dashboard-refresh-profile.ts --postgres-url URL
 */
import { parseArgs } from 'node:util';
import type { KyselyPlugin, QueryId, RootOperationNode } from 'kysely';
import { refreshSummary, sumMarkedDays } from '../../src/modules/dashboard/summary-refresh.js';
import { openKeptStore, payOrder, putBack, unpaidOrders, ZONE } from './dashboard-bench-store.js';

const { values: args } = parseArgs({
  options: {
    'sqlite-dir': { type: 'string' },
    'postgres-url': { type: 'string' },
    runs: { type: 'string', default: '7' },
  },
});
const { db, postgres, close } = await openKeptStore(
  { sqliteDir: args['sqlite-dir'], postgresUrl: args['postgres-url'] },
  1,
);
await refreshSummary(db, ZONE);

type Timed = { label: string; ms: number };
function timeStatements(into: Timed[]): KyselyPlugin {
  const started = new Map<QueryId, { label: string; at: number }>();
  return {
    transformQuery: ({ node, queryId }) => {
      const text = db.getExecutor().compileQuery(node as RootOperationNode, queryId).sql;
      started.set(queryId, { label: text.replace(/\s+/g, ' ').slice(0, 90), at: performance.now() });
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      const s = started.get(queryId);
      if (s) into.push({ label: s.label, ms: performance.now() - s.at });
      return result;
    },
  };
}

const runs = Number(args.runs);
const unpaid = await unpaidOrders(db, runs);
const perRun: Timed[][] = [];
const totals: number[] = [];
try {
  for (const order of unpaid) {
    await payOrder(db, order.id);
    const timed: Timed[] = [];
    const t = performance.now();
    await sumMarkedDays(db.withPlugin(timeStatements(timed)), ZONE);
    totals.push(performance.now() - t);
    perRun.push(timed);
  }
} finally {
  await putBack(db, unpaid);
  await refreshSummary(db, ZONE);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(
  `${postgres ? 'PostgreSQL' : 'SQLite'}: one payment summed, median of ${runs}: ${median(totals).toFixed(1)} ms (${totals.map((t) => t.toFixed(0)).join(', ')})`,
);
// The median of each statement, and the first payment's own (the first after a rebuild runs colder).
const first = perRun[0] ?? [];
first.forEach((s, i) => {
  const ms = median(perRun.map((r) => r[i]?.ms ?? 0));
  console.log(`${ms.toFixed(1).padStart(8)} ms ${s.ms.toFixed(1).padStart(8)} ms first  ${s.label}`);
});
await close();
