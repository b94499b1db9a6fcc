/**
 * `npm run bench`: generates a large catalogue, starts the built server in production mode next to a bare
 * baseline route on the same database, loads both with autocannon and prints each figure as a ratio to the
 * baseline measured in the same run (these machines are shared and noisy: compare ratios, not absolutes).
 *
 *   npm run bench                     10,000 products
 *   npm run bench -- --products 100000 --duration 10
 *   npm run bench -- --db postgres    the same on a throwaway PostgreSQL database (127.0.0.1:5432)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { appRoot } from '../../src/app-root.js';
import {
  exportCatalog,
  importCatalog,
  readVersionContent,
} from '../../src/modules/catalog-versions/catalog-versions.service.js';
import { facetCounts, searchProducts } from '../../src/modules/catalogue/catalogue-search.repository.js';
import { LocalFileStorage } from '../../src/storage/local-file-storage.js';
import { spawnNode } from '../launcher/node-process.js';
import { freePort, startServer, waitForHealthy } from '../launcher/server.js';
import { type BenchEngine, openBenchDatabase } from './bench-database.js';
import { bundleReport, printBundle } from './bundle-sizes.js';
import { copyDemoImages, generateCatalogue } from './generate-catalogue.js';
import { type LighthouseRow, printLighthouse, runLighthouse } from './lighthouse.js';

const { values: args } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10,50' },
    keep: { type: 'boolean', default: false },
    // Lighthouse needs Chromium (/usr/bin/chromium or CHROMIUM_PATH); CI's smoke run skips it.
    lighthouse: { type: 'boolean', default: true },
    // Each page this many times; the median run (by LCP) is reported with the spread. Five, as Lighthouse's
    // variability guide advises: single runs of one page spread 1.0-1.9 s on this shared machine.
    'lighthouse-runs': { type: 'string', default: '5' },
    // Ranked search is also timed on a second, 100,000-product catalogue (about half a minute to build).
    'fts-100k': { type: 'boolean', default: true },
    db: { type: 'string', default: 'sqlite' },
  },
  allowNegative: true,
});
if (args.db !== 'sqlite' && args.db !== 'postgres') throw new Error('--db is sqlite or postgres');
const engine: BenchEngine = args.db;
const productCount = Number(args.products);
const duration = Number(args.duration);
const connectionLevels = String(args.connections).split(',').map(Number);

type Row = {
  scenario: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
};

async function load(
  url: string,
  connections: number,
  seconds: number,
): Promise<Omit<Row, 'scenario' | 'connections'>> {
  // As a browser asks: it always accepts compressed answers (the baseline ignores the header).
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    headers: { 'accept-encoding': 'gzip, deflate, br' },
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

const trpcGet = (pathName: string, input: unknown) =>
  `/api/trpc/${pathName}?input=${encodeURIComponent(JSON.stringify(input))}`;
const trpcBatch = (paths: string[], inputs: unknown[]) =>
  `/api/trpc/${paths.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(inputs.map((v, i) => [i, v]))))}`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const SEARCH_WORDS = [
  'silk',
  'kurta',
  'emerald jaal',
  'wedding lehenga',
  'zarnigar',
  'chik',
  'blush pink anarkali',
];

type Latency = { p50: number; p99: number };

function latency(timings: number[]): Latency {
  timings.sort((a, b) => a - b);
  return { p50: Number(percentile(timings, 50).toFixed(2)), p99: Number(percentile(timings, 99).toFixed(2)) };
}

/**
 * In-process catalogue query latency (no HTTP): what the queries themselves cost.
 * - ranked search for the words alone, and with a size filter (the full-text index then drives a join
 *   with the facets);
 * - facet counts for those searches with a price bound no request repeats, so none is answered from the
 *   answer cache (what the first shopper to ask pays), and the one-off load of the facet snapshot.
 */
async function searchLatency(db: Parameters<typeof searchProducts>[0]) {
  const filterFor = (i: number, sizes: string[]) => ({
    q: SEARCH_WORDS[i % SEARCH_WORDS.length],
    manufacturers: [],
    sizes,
    colors: [],
    tags: [],
  });
  // 350 rounds; the first 50 warm the page cache and the JIT and are not counted.
  const rounds = async (run: (i: number) => Promise<unknown>): Promise<Latency> => {
    const timings: number[] = [];
    for (let i = 0; i < 350; i++) {
      const s = performance.now();
      await run(i);
      if (i >= 50) timings.push(performance.now() - s);
    }
    return latency(timings);
  };
  const text = await rounds((i) => searchProducts(db, filterFor(i, []), { offset: 0, limit: 24 }));
  const filtered = await rounds((i) => searchProducts(db, filterFor(i, ['M']), { offset: 0, limit: 24 }));

  const t = performance.now();
  await facetCounts(db, { manufacturers: [], sizes: [], colors: [], tags: [] });
  const facetSnapshotLoadMs = Math.round(performance.now() - t);
  const facetsUncached = await rounds((i) =>
    facetCounts(db, { ...filterFor(i, i % 2 ? ['M'] : []), priceMax: 1_000_000_000 + i }),
  );
  return { text, filtered, facetsUncached, facetSnapshotLoadMs };
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'store-bench-'));
  console.log(`Generating ${productCount.toLocaleString('en-US')} products on ${engine} (${dataDir}) …`);
  const handle = await openBenchDatabase(engine, dataDir);
  const t0 = performance.now();
  const ids = await generateCatalogue(handle.db, productCount);
  console.log(`  generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  copyDemoImages(dataDir);
  const fts: Record<string, Awaited<ReturnType<typeof searchLatency>>> = {
    [productCount]: await searchLatency(handle.db),
  };
  if (args['fts-100k'] && productCount < 100_000) {
    const bigDir = mkdtempSync(path.join(tmpdir(), 'store-bench-100k-'));
    const big = await openBenchDatabase(engine, bigDir);
    const tb = performance.now();
    await generateCatalogue(big.db, 100_000);
    console.log(
      `  generated 100,000 products for the search timing in ${((performance.now() - tb) / 1000).toFixed(1)} s`,
    );
    fts[100_000] = await searchLatency(big.db);
    await big.close();
    await big.drop();
    rmSync(bigDir, { recursive: true, force: true });
  }
  for (const [n, t] of Object.entries(fts)) {
    const at = Number(n).toLocaleString('en-US');
    console.log(`  ranked search in-process at ${at} products: p50 ${t.text.p50} ms, p99 ${t.text.p99} ms`);
    console.log(`    with a size filter: p50 ${t.filtered.p50} ms, p99 ${t.filtered.p99} ms`);
    console.log(
      `  facet counts not in the answer cache: p50 ${t.facetsUncached.p50} ms, p99 ${t.facetsUncached.p99} ms (snapshot load ${t.facetSnapshotLoadMs} ms)`,
    );
  }

  // YAML export of the whole catalogue, and its import into an empty store (add mode, one transaction).
  const storage = new LocalFileStorage(dataDir);
  const clock = { now: () => new Date() };
  let t = performance.now();
  const exported = await exportCatalog({ db: handle.db, storage, clock }, { label: 'bench export' });
  const exportMs = performance.now() - t;
  const yaml = await readVersionContent({ db: handle.db, storage, clock }, exported.id);
  const importDir = mkdtempSync(path.join(tmpdir(), 'store-bench-import-'));
  const importHandle = await openBenchDatabase(engine, importDir);
  t = performance.now();
  const imported = await importCatalog(
    { db: importHandle.db, storage: new LocalFileStorage(importDir), clock },
    yaml,
    'add',
  );
  const importMs = performance.now() - t;
  await importHandle.close();
  await importHandle.drop();
  rmSync(importDir, { recursive: true, force: true });
  const yamlTimes = {
    exportMs: Math.round(exportMs),
    importMs: Math.round(importMs),
    yamlMb: Number((yaml.length / 1e6).toFixed(1)),
    imported: imported.added,
  };
  console.log(
    `  YAML export ${yamlTimes.exportMs} ms (${yamlTimes.yamlMb} MB), import ${yamlTimes.importMs} ms (${imported.added} products)`,
  );
  await handle.close();

  const storePort = await freePort();
  const basePort = await freePort();
  const coldStart = performance.now();
  const store = await startServer({
    entry: 'dist',
    dataDir,
    port: storePort,
    env: {
      ...handle.serverEnv,
      DEMO_CATALOGUE: 'false',
      // The load comes from one address: a per-address budget would measure the limit, not the store.
      PUBLIC_QUERY_MS_PER_SECOND: '0',
    },
  });
  const coldStartMs = performance.now() - coldStart;
  const baseline = spawnNode(['scripts/bench/baseline-server.mjs', handle.baselineTarget, String(basePort)]);
  await waitForHealthy(`http://127.0.0.1:${basePort}/baseline`, baseline);

  const storeUrl = store.baseUrl;
  const productId = ids[Math.floor(ids.length / 2)] ?? '';
  const filter = { sizes: ['M'], tags: ['women'], manufacturers: [], colors: [] };
  const scenarios: Array<[string, string]> = [
    ['catalogue first page', `${storeUrl}${trpcGet('catalogue.search', { limit: 24 })}`],
    [
      'filtered page + facets',
      `${storeUrl}${trpcBatch(['catalogue.search', 'catalogue.facets'], [{ ...filter, limit: 24 }, filter])}`,
    ],
    ['text search', `${storeUrl}${trpcGet('catalogue.search', { q: 'silk kurta', limit: 24 })}`],
    ['product detail', `${storeUrl}${trpcGet('catalogue.byId', { id: productId })}`],
    ['home page HTML', `${storeUrl}/`],
    ['product page HTML', `${storeUrl}/product/${productId}`],
  ];

  const bundle = bundleReport(path.join(appRoot, 'dist', 'client'));
  const rows: Row[] = [];
  let lighthouse: LighthouseRow[] | null = null;
  let rssKb = 0;
  try {
    // Warm-up: JIT, SQLite page cache.
    for (const [, url] of scenarios) await load(url, 10, 1);
    await load(`http://127.0.0.1:${basePort}/baseline`, 10, 1);
    for (const connections of connectionLevels) {
      rows.push({
        scenario: 'BASELINE (bare route)',
        connections,
        ...(await load(`http://127.0.0.1:${basePort}/baseline`, connections, duration)),
      });
      for (const [name, url] of scenarios)
        rows.push({ scenario: name, connections, ...(await load(url, connections, duration)) });
    }
    rssKb = store.rssKb() ?? 0;
    if (args.lighthouse) {
      console.log('\nLighthouse (mobile emulation, simulated throttling) …');
      lighthouse = await runLighthouse(
        [
          { page: 'home', url: `${storeUrl}/` },
          { page: 'filtered', url: `${storeUrl}/?size=M&tag=women` },
          { page: 'product', url: `${storeUrl}/product/${productId}` },
        ],
        Math.max(1, Number(args['lighthouse-runs']) || 5),
      );
    }
  } finally {
    await Promise.all([store.stop(), baseline.stop()]);
    const report = {
      at: new Date().toISOString(),
      engine,
      products: productCount,
      durationSeconds: duration,
      coldStartMs: Math.round(coldStartMs),
      storeRssMbAfterLoad: Math.round(rssKb / 1024),
      yaml: yamlTimes,
      catalogueQueriesInProcessMs: fts,
      lighthouse,
      bundle,
      rows: rows.map((r) => {
        const base = rows.find((b) => b.scenario.startsWith('BASELINE') && b.connections === r.connections);
        return { ...r, ratioToBaseline: base ? Number((r.rps / base.rps).toFixed(2)) : null };
      }),
    };
    console.log(`\nCold start ${report.coldStartMs} ms · RSS after load ${report.storeRssMbAfterLoad} MB \n`);
    console.log('scenario                    conns     req/s   p50 ms   p99 ms  errors  non-2xx  × baseline');
    for (const r of report.rows) {
      console.log(
        `${r.scenario.padEnd(26)} ${String(r.connections).padStart(5)} ${r.rps.toFixed(0).padStart(9)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.errors).padStart(7)} ${String(r.non2xx).padStart(8)}  ${r.ratioToBaseline ?? ''}`,
      );
    }
    if (lighthouse) printLighthouse(lighthouse);
    printBundle(bundle);
    const outDir = path.join(appRoot, 'bench-results');
    mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `bench-${report.at.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nReport: ${path.relative(process.cwd(), file)}`);
    if (!args.keep) {
      rmSync(dataDir, { recursive: true, force: true });
      await handle.drop();
    }
  }
}

await main();
