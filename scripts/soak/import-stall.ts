/**
 * How long a big overwrite import keeps shoppers waiting, measured in-process (no build needed):
 *
 *   npx tsx scripts/soak/import-stall.ts --products 50000
 *
 * Seeds a store with --seed products, then imports --products products in overwrite mode while a 1 ms timer
 * ticks (its longest gap is the longest time the event loop could not answer anyone) and a shopper's read
 * (a catalogue page through Kysely) is sent every 20 ms (its slowest answer is what a shopper saw). Prints
 * these per stage of the import. Measurement only: no pass or fail (the machine's load moves the figures).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { databaseFile, openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { importCatalog } from '../../src/modules/catalog-versions/catalog-versions.service.js';
import { LocalFileStorage } from '../../src/storage/local-file-storage.js';
import { generateCatalogue } from '../bench/generate-catalogue.js';
import { importYaml } from './fixtures.js';

const { values: args } = parseArgs({
  options: { products: { type: 'string', default: '50000' }, seed: { type: 'string', default: '2000' } },
});
const count = Number(args.products);
const seed = Number(args.seed);

const dir = mkdtempSync(path.join(tmpdir(), 'store-import-stall-'));
const handle = openDatabase(databaseFile(dir));
try {
  await migrateToLatest(handle.db);
  await generateCatalogue(handle.db, seed, 42, { withStock: false });
  const yaml = importYaml(count, 'stall');

  // Every gap between two ticks of a 1 ms timer: how long the event loop could not answer anyone.
  const gaps: Array<{ from: number; ms: number }> = [];
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    gaps.push({ from: last, ms: now - last });
    last = now;
  }, 1);
  const reads: Array<{ at: number; ms: number }> = [];
  let importing = true;
  const shopper = (async () => {
    while (importing) {
      const t = performance.now();
      await handle.db
        .selectFrom('products')
        .select(['id', 'title'])
        .orderBy('page_order')
        .limit(24)
        .execute();
      reads.push({ at: t, ms: performance.now() - t });
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  const t0 = performance.now();
  const stages: Array<{ name: string; at: number }> = [{ name: 'reading the file', at: t0 }];
  await importCatalog(
    { db: handle.db, storage: new LocalFileStorage(dir), clock: { now: () => new Date() } },
    yaml,
    'overwrite',
    {
      onStage: (stage) =>
        stages.push({
          name:
            stage === 'backup' ? 'backup version' : stage === 'replacing' ? 'replacing transaction' : stage,
          at: performance.now(),
        }),
    },
  );
  const end = performance.now();
  importing = false;
  await shopper;
  clearInterval(ticker);
  console.log(`overwrite import of ${count} products over ${seed}: ${Math.round(end - t0)} ms in all`);
  // Each stage: its length, the longest event-loop gap that lay mostly in it, and the shoppers' slowest read.
  const overlap = (from: number, to: number, a: number, b: number) =>
    Math.max(0, Math.min(to, b) - Math.max(from, a));
  const bounds = stages.map((stage, i) => [stage.at, stages[i + 1]?.at ?? end] as const);
  const stageOf = (g: { from: number; ms: number }) => {
    const shares = bounds.map(([a, b]) => overlap(g.from, g.from + g.ms, a, b));
    return shares.indexOf(Math.max(...shares));
  };
  for (const [i, stage] of stages.entries()) {
    if (stage.name === 'committed') continue;
    const until = stages[i + 1]?.at ?? end;
    const gap = Math.max(0, ...gaps.filter((g) => stageOf(g) === i).map((g) => g.ms));
    const slow = reads.filter((r) => stageOf({ from: r.at, ms: r.ms }) === i);
    console.log(
      `  ${stage.name.padEnd(22)} ${String(Math.round(until - stage.at)).padStart(6)} ms; longest event-loop gap ${Math.round(gap)} ms; ${slow.length} reads, slowest ${Math.round(Math.max(0, ...slow.map((r) => r.ms)))} ms`,
    );
  }
} finally {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
}
