/**
 * The bench's cache-miss stream alone, on a catalogue generated once and kept: for comparing two trees side
 * by side in about 35 s a run (the full bench takes minutes, most of them generating). Copy this file into an
 * older tree's scripts/bench/ to run it there; trees of one schema can share a catalogue.
 *
 *   npx tsx scripts/bench/cache-miss-only.ts /tmp/cm-catalogue [products]
 *
 * CPU_PROF_DIR=/tmp/prof writes the store's CPU profile there (node --cpu-prof) for a side-by-side look;
 * GENERATE_ONLY=1 only makes the catalogue (for cache-miss-ab.ts).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnNode } from '../launcher/node-process.js';
import { freePort, startServer, waitForHealthy } from '../launcher/server.js';
import { SERVER_NODE_FLAGS } from '../server-flags.js';
import { openBenchDatabase } from './bench-database.js';
import { distinctListingPaths } from './cache-miss.js';
import { generateCatalogue } from './generate-catalogue.js';
import { load } from './http-load.js';
import { BENCH_METRICS_TOKEN } from './loop-delay.js';

const [dir = '/tmp/cm-catalogue', products = '100000'] = process.argv.slice(2);
const generated = join(dir, '.generated');
mkdirSync(dir, { recursive: true });
const handle = await openBenchDatabase('sqlite', dir);
if (!existsSync(generated)) {
  await generateCatalogue(handle.db, Number(products));
  await handle.settle();
  writeFileSync(generated, products);
}
await handle.close();
if (process.env.GENERATE_ONLY) process.exit(0);
const store = await startServer({
  entry: 'dist',
  dataDir: dir,
  port: await freePort(),
  ...(process.env.CPU_PROF_DIR
    ? { nodeFlags: [...SERVER_NODE_FLAGS, '--cpu-prof', '--cpu-prof-dir', process.env.CPU_PROF_DIR] }
    : {}),
  env: {
    ...handle.serverEnv,
    DEMO_CATALOGUE: 'false',
    PUBLIC_QUERY_MS_PER_SECOND: '0',
    METRICS_TOKEN: BENCH_METRICS_TOKEN,
  },
});
const basePort = await freePort();
const baseline = spawnNode(['scripts/bench/baseline-server.mjs', handle.baselineTarget, String(basePort)]);
try {
  const baselineUrl = `http://127.0.0.1:${basePort}/baseline`;
  await waitForHealthy(baselineUrl, baseline);
  // As run.ts: a warm-up stream of its own, then the bare route and the stream it measures (seed 100 + 10).
  await load(`${store.baseUrl}/`, 10, 10, { nextPath: distinctListingPaths(1) });
  await load(baselineUrl, 10, 1);
  const base = await load(baselineUrl, 10, 6, { server: baseline });
  const miss = await load(`${store.baseUrl}/`, 10, 6, {
    nextPath: distinctListingPaths(110),
    store: store.baseUrl,
    server: store,
  });
  console.log(
    `cache-miss listings ${(miss.rps / base.rps).toFixed(3)}× baseline: ${miss.rps.toFixed(0)} batches/s at ${miss.cpuMsPerRequest} ms CPU each; baseline ${base.rps.toFixed(0)}/s at ${base.cpuMsPerRequest} ms`,
  );
} finally {
  await Promise.all([store.stop(), baseline.stop()]);
}
