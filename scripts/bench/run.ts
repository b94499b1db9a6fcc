/**
 * `npm run bench`: generates a large catalogue, starts the built server in production mode next to a bare
 * baseline route on the same database, loads both with autocannon and prints each figure as a ratio to the
 * baseline measured in the same run (these machines are shared and noisy: compare ratios, not absolutes).
 *
 *   npm run bench                     10,000 products on SQLite
 *   npm run bench -- --products 100000 --duration 10
 *   npm run bench -- --db postgres    the same catalogue on SQLite and on a throwaway PostgreSQL database
 *                                     (127.0.0.1:5432), both stores loaded in one run against the SQLite
 *                                     baseline, then one vs two PostgreSQL processes behind a balancer
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { appRoot } from '../../src/app-root.js';
import {
  CatalogError,
  exportCatalog,
  importCatalog,
  readVersionContent,
} from '../../src/modules/catalog-versions/catalog-versions.service.js';
import { LocalFileStorage } from '../../src/storage/local-file-storage.js';
import { type NodeProcess, spawnNode } from '../launcher/node-process.js';
import { freePort, type ServerProcess, startServer, waitForHealthy } from '../launcher/server.js';
import { type BenchDatabase, type BenchEngine, openBenchDatabase } from './bench-database.js';
import { bundleReport, printBundle } from './bundle-sizes.js';
import { distinctListingPaths } from './cache-miss.js';
import { copyDemoImages, generateCatalogue } from './generate-catalogue.js';
import { load, type Measured, storeScenarios } from './http-load.js';
import { type LighthouseRow, printLighthouse, runLighthouse, storefrontPages } from './lighthouse.js';
import { BENCH_METRICS_TOKEN } from './loop-delay.js';
import {
  BASELINE,
  compareEngines,
  PG_BASELINE,
  printEngines,
  printRows,
  type RatedRow,
  type Row,
  rate,
} from './report.js';
import { printScaleOut, runScaleOut, type ScaleOutRow } from './scale-out.js';
import { type SearchTimings, searchLatency } from './search-latency.js';

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
    // Ranked search is also timed on a second, 100,000-product catalogue (about half a minute to build on
    // SQLite; about five minutes on PostgreSQL, whose triggers index each product as it is inserted).
    'fts-100k': { type: 'boolean', default: true },
    db: { type: 'string', default: 'sqlite' },
    // With --db postgres: one vs this many PostgreSQL store processes behind the bench's balancer (1 skips).
    processes: { type: 'string', default: '2' },
  },
  allowNegative: true,
});
if (args.db !== 'sqlite' && args.db !== 'postgres') throw new Error('--db is sqlite or postgres');
const engine: BenchEngine = args.db;
// SQLite is always measured: it is the baseline's engine and what PostgreSQL's figures are compared with.
const engines: BenchEngine[] = engine === 'postgres' ? ['sqlite', 'postgres'] : ['sqlite'];
const productCount = Number(args.products);
const duration = Number(args.duration);
const connectionLevels = String(args.connections).split(',').map(Number);
const processCount = Number(args.processes);
/** The budget for an uncached ranked search at 100,000 products on PostgreSQL. */
const PG_SEARCH_P99_TARGET_MS = 20;
/** The name of the scenario no cache can answer (scripts/bench/cache-miss.ts). */
const CACHE_MISS = 'cache-miss listings';
/** The targets for requests no cache has seen (docs/benchmark.md, "Targets"), checked and printed at the end. */
const TARGETS = {
  cacheMissRatio10k: 0.3,
  cacheMissRatio100k: 0.1,
  cacheMissP99Ms: 25,
  loopStallMs: 50,
  filteredP99Ms: 10,
  facetsP99Ms: 5,
  prefixPhraseP99Ms: 15,
};

/** The cache-miss stream over HTTP on the 100,000-product catalogue, against a baseline on the same data. */
type At100k = {
  engine: BenchEngine;
  connections: number;
  baseline: Measured;
  cacheMiss: Measured;
  ratio: number;
};

/** Null where the export is larger than a version the store shows or imports (its size limit). */
type YamlTimes = { exportMs: number; importMs: number; yamlMb: number; imported: number } | null;

/** One engine's catalogue, generated and measured in-process, ready for its store to be started on. */
type Prepared = {
  engine: BenchEngine;
  dataDir: string;
  handle: BenchDatabase;
  ids: string[];
  fts: Record<string, SearchTimings>;
  /** The cache-miss stream over HTTP at 100,000 products (empty without --fts-100k). */
  http100k: At100k[];
  yaml: YamlTimes;
};

/** Whatever a run made that must go at the end, even when it fails halfway. */
const cleanups: Array<() => Promise<void>> = [];

/**
 * The 100,000-product catalogue: the in-process timings, then a store started on it loaded with the
 * cache-miss stream over HTTP next to a bare route on the same data.
 */
async function timeAt100k(on: BenchEngine): Promise<{ timings: SearchTimings; http: At100k[] }> {
  const bigDir = mkdtempSync(path.join(tmpdir(), 'store-bench-100k-'));
  const big = await openBenchDatabase(on, bigDir);
  try {
    const tb = performance.now();
    await generateCatalogue(big.db, 100_000);
    await big.settle();
    console.log(
      `  generated 100,000 products for the search timing in ${((performance.now() - tb) / 1000).toFixed(1)} s`,
    );
    const timings = await searchLatency(big.db);
    await big.close();
    const store = await startServer({
      entry: 'dist',
      dataDir: bigDir,
      port: await freePort(),
      env: storeEnv({ handle: big }),
    });
    const basePort = await freePort();
    const baseline = spawnNode(['scripts/bench/baseline-server.mjs', big.baselineTarget, String(basePort)]);
    const http: At100k[] = [];
    try {
      const baselineUrl = `http://127.0.0.1:${basePort}/baseline`;
      await waitForHealthy(baselineUrl, baseline);
      // Warm-up with a stream of its own: JIT, page cache, the facet snapshot's first load. At 100,000
      // products that load takes 1-4 s in its worker on a shared 2-core machine, and until it lands the
      // listings are answered by SQL: 10 s, so that the figures are of the store as it runs, not starts.
      await load(`${store.baseUrl}/`, 10, 10, { nextPath: distinctListingPaths(1) });
      await load(baselineUrl, 10, 1);
      for (const connections of connectionLevels) {
        const base = await load(baselineUrl, connections, duration, { server: baseline });
        const cacheMiss = await load(`${store.baseUrl}/`, connections, duration, {
          nextPath: distinctListingPaths(100 + connections),
          store: store.baseUrl,
          server: store,
        });
        http.push({
          engine: on,
          connections,
          baseline: base,
          cacheMiss,
          ratio: Number((cacheMiss.rps / base.rps).toFixed(2)),
        });
      }
    } finally {
      await Promise.all([store.stop(), baseline.stop()]);
    }
    return { timings, http };
  } finally {
    await big.close();
    await big.drop();
    rmSync(bigDir, { recursive: true, force: true });
  }
}

/** YAML export of the whole catalogue, and its import into an empty store (add mode, one transaction). */
async function timeYaml(on: BenchEngine, handle: BenchDatabase, dataDir: string): Promise<YamlTimes> {
  const storage = new LocalFileStorage(dataDir);
  const clock = { now: () => new Date() };
  let t = performance.now();
  const exported = await exportCatalog({ db: handle.db, storage, clock }, { label: 'bench export' });
  const exportMs = performance.now() - t;
  let yaml: string;
  try {
    yaml = await readVersionContent({ db: handle.db, storage, clock }, exported.id);
  } catch (error) {
    if (error instanceof CatalogError) {
      console.log(`  YAML export ${Math.round(exportMs)} ms; not imported: ${error.message}`);
      return null;
    }
    throw error;
  }
  const importDir = mkdtempSync(path.join(tmpdir(), 'store-bench-import-'));
  const importHandle = await openBenchDatabase(on, importDir);
  try {
    t = performance.now();
    const imported = await importCatalog(
      { db: importHandle.db, storage: new LocalFileStorage(importDir), clock },
      yaml,
      'add',
    );
    return {
      exportMs: Math.round(exportMs),
      importMs: Math.round(performance.now() - t),
      yamlMb: Number((yaml.length / 1e6).toFixed(1)),
      imported: imported.added,
    };
  } finally {
    await importHandle.close();
    await importHandle.drop();
    rmSync(importDir, { recursive: true, force: true });
  }
}

async function prepare(on: BenchEngine): Promise<Prepared> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'store-bench-'));
  console.log(`Generating ${productCount.toLocaleString('en-US')} products on ${on} (${dataDir}) …`);
  const handle = await openBenchDatabase(on, dataDir);
  cleanups.push(async () => {
    if (args.keep) return;
    rmSync(dataDir, { recursive: true, force: true });
    await handle.drop();
  });
  const t0 = performance.now();
  // The same seed on every engine: the same products, ids and words.
  const ids = await generateCatalogue(handle.db, productCount);
  await handle.settle();
  console.log(`  generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  copyDemoImages(dataDir);
  const fts: Record<string, SearchTimings> = { [productCount]: await searchLatency(handle.db) };
  let http100k: At100k[] = [];
  if (args['fts-100k'] && productCount < 100_000) {
    const big = await timeAt100k(on);
    fts[100_000] = big.timings;
    http100k = big.http;
  }
  for (const [n, t] of Object.entries(fts)) {
    const at = Number(n).toLocaleString('en-US');
    console.log(`  ranked search in-process at ${at} products: p50 ${t.text.p50} ms, p99 ${t.text.p99} ms`);
    console.log(`    with a size filter: p50 ${t.filtered.p50} ms, p99 ${t.filtered.p99} ms`);
    console.log(
      `    two words never asked together (half with a size): p50 ${t.distinctWords.p50} ms, p99 ${t.distinctWords.p99} ms`,
    );
    console.log(
      `    one-letter prefixes: p50 ${t.prefixes.p50} ms, p99 ${t.prefixes.p99} ms; common phrases: p50 ${t.phrases.p50} ms, p99 ${t.phrases.p99} ms`,
    );
    console.log(
      `  facet counts not in the answer cache: p50 ${t.facetsUncached.p50} ms, p99 ${t.facetsUncached.p99} ms (snapshot load ${t.facetSnapshotLoadMs} ms)`,
    );
  }
  const yaml = await timeYaml(on, handle, dataDir);
  if (yaml) {
    console.log(
      `  YAML export ${yaml.exportMs} ms (${yaml.yamlMb} MB), import ${yaml.importMs} ms (${yaml.imported} products)`,
    );
  }
  await handle.close();
  return { engine: on, dataDir, handle, ids, fts, http100k, yaml };
}

/** A store and its bare baseline route, both on one engine's database. */
type Running = {
  engine: BenchEngine;
  store: ServerProcess;
  baseline: NodeProcess;
  baselineUrl: string;
  coldStartMs: number;
};

function storeEnv(p: { handle: BenchDatabase }): Record<string, string> {
  return {
    ...p.handle.serverEnv,
    DEMO_CATALOGUE: 'false',
    // The load comes from one address: a per-address budget would measure the limit, not the store.
    PUBLIC_QUERY_MS_PER_SECOND: '0',
    // The event-loop delay of each scenario is read from /metrics.
    METRICS_TOKEN: BENCH_METRICS_TOKEN,
  };
}

async function start(p: Prepared): Promise<Running> {
  const coldStart = performance.now();
  const store = await startServer({
    entry: 'dist',
    dataDir: p.dataDir,
    port: await freePort(),
    env: storeEnv(p),
  });
  const coldStartMs = performance.now() - coldStart;
  const basePort = await freePort();
  const baseline: NodeProcess = spawnNode([
    'scripts/bench/baseline-server.mjs',
    p.handle.baselineTarget,
    String(basePort),
  ]);
  cleanups.push(async () => void (await Promise.all([store.stop(), baseline.stop()])));
  const baselineUrl = `http://127.0.0.1:${basePort}/baseline`;
  await waitForHealthy(baselineUrl, baseline);
  return { engine: p.engine, store, baseline, baselineUrl, coldStartMs };
}

async function main() {
  const prepared: Prepared[] = [];
  for (const on of engines) prepared.push(await prepare(on));
  const running: Running[] = [];
  for (const p of prepared) running.push(await start(p));
  const primary = running.find((r) => r.engine === engine) ?? (running[0] as Running);

  const first = prepared[0] as Prepared;
  const productId = first.ids[Math.floor(first.ids.length / 2)] ?? '';
  const scenarios = storeScenarios(productId);
  const bundle = bundleReport(path.join(appRoot, 'dist', 'client'));
  const rows: Row[] = [];
  let lighthouse: LighthouseRow[] | null = null;
  let scaleOut: ScaleOutRow[] | null = null;
  const rssMb: Partial<Record<BenchEngine, number>> = {};
  try {
    // Warm-up: JIT, the database's page cache, the response caches.
    for (const r of running) {
      for (const s of scenarios) await load(`${r.store.baseUrl}${s.path}`, 10, 1);
      await load(r.baselineUrl, 10, 1);
    }
    for (const connections of connectionLevels) {
      for (const r of running) {
        const scenario = r.engine === 'sqlite' ? BASELINE : PG_BASELINE;
        rows.push({
          scenario,
          engine: r.engine,
          connections,
          ...(await load(r.baselineUrl, connections, duration, { server: r.baseline })),
        });
      }
      // Engine after engine within each scenario, so a noisy neighbour's burst hits both alike.
      for (const s of scenarios) {
        for (const r of running) {
          const measured = await load(`${r.store.baseUrl}${s.path}`, connections, duration, {
            store: r.store.baseUrl,
          });
          rows.push({ scenario: s.name, engine: r.engine, connections, ...measured });
        }
      }
      // No two requests alike: every one is computed (the same stream on each engine). A stream of its own
      // first, as at 100,000: the cards and the words of a store that shoppers have been browsing, rather
      // than of one that has answered only the cached scenarios' few pages.
      for (const r of running) {
        await load(`${r.store.baseUrl}/`, connections, 3, {
          nextPath: distinctListingPaths(1000 + connections),
        });
        const measured = await load(`${r.store.baseUrl}/`, connections, duration, {
          nextPath: distinctListingPaths(connections),
          store: r.store.baseUrl,
          server: r.store,
        });
        rows.push({ scenario: CACHE_MISS, engine: r.engine, connections, ...measured });
      }
    }
    for (const r of running) rssMb[r.engine] = Math.round((r.store.rssKb() ?? 0) / 1024);
    const pg = running.find((r) => r.engine === 'postgres');
    const pgPrepared = prepared.find((p) => p.engine === 'postgres');
    if (pg && pgPrepared && processCount >= 2) {
      console.log('\nOne vs two PostgreSQL store processes behind the balancer …');
      scaleOut = await runScaleOut({
        first: pg.store,
        env: storeEnv(pgPrepared),
        scenarios,
        connectionLevels,
        duration,
      });
    }
    if (args.lighthouse) {
      console.log('\nLighthouse (mobile emulation, simulated throttling) …');
      const url = primary.store.baseUrl;
      // Every storefront page, those after the cart included (on a demo order made for them): CLS per page.
      lighthouse = await runLighthouse(
        await storefrontPages(url, productId),
        Math.max(1, Number(args['lighthouse-runs']) || 5),
      );
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
  report({ prepared, running, primary, rows: rate(rows), lighthouse, bundle, scaleOut, rssMb });
}

function report(run: {
  prepared: Prepared[];
  running: Running[];
  primary: Running;
  rows: RatedRow[];
  lighthouse: LighthouseRow[] | null;
  bundle: ReturnType<typeof bundleReport>;
  scaleOut: ScaleOutRow[] | null;
  rssMb: Partial<Record<BenchEngine, number>>;
}): void {
  const perEngine = Object.fromEntries(
    run.prepared.map((p) => {
      const r = run.running.find((x) => x.engine === p.engine);
      return [
        p.engine,
        {
          coldStartMs: Math.round(r?.coldStartMs ?? 0),
          storeRssMbAfterLoad: run.rssMb[p.engine] ?? 0,
          yaml: p.yaml,
          catalogueQueriesInProcessMs: p.fts,
          cacheMissAt100k: p.http100k,
        },
      ];
    }),
  );
  const main = perEngine[engine] ?? perEngine.sqlite;
  const comparison = engines.length > 1 ? compareEngines(run.rows) : null;
  const pgSearch = engines.includes('postgres') ? perEngine.postgres?.catalogueQueriesInProcessMs : undefined;
  const report = {
    at: new Date().toISOString(),
    engine,
    engines,
    products: productCount,
    durationSeconds: duration,
    ...main,
    ...(engines.length > 1 ? { perEngine } : {}),
    lighthouse: run.lighthouse,
    bundle: run.bundle,
    rows: run.rows,
    ...(comparison ? { postgresVsSqlite: comparison } : {}),
    ...(run.scaleOut ? { scaleOut: run.scaleOut } : {}),
  };
  if (engines.length === 1) {
    console.log(`\nCold start ${report.coldStartMs} ms · RSS after load ${report.storeRssMbAfterLoad} MB \n`);
    printRows(run.rows);
  } else {
    console.log('');
    for (const [on, e] of Object.entries(perEngine))
      console.log(`${on}: cold start ${e.coldStartMs} ms · RSS after load ${e.storeRssMbAfterLoad} MB`);
    console.log('');
    printEngines(run.rows, comparison ?? []);
    if (run.scaleOut) printScaleOut(run.scaleOut);
    const at100k = pgSearch?.[100_000];
    if (at100k) {
      const verdict = at100k.text.p99 < PG_SEARCH_P99_TARGET_MS ? 'meets' : 'OVER';
      console.log(
        `\nUncached ranked search at 100,000 products on PostgreSQL: p99 ${at100k.text.p99} ms (target < ${PG_SEARCH_P99_TARGET_MS} ms: ${verdict})`,
      );
    }
  }
  printLoopDelay(run.rows);
  printTargets(run.rows, run.prepared);
  if (run.lighthouse) printLighthouse(run.lighthouse);
  printBundle(run.bundle);
  const outDir = path.join(appRoot, 'bench-results');
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `bench-${report.at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nReport: ${path.relative(process.cwd(), file)}`);
}

/** The store's event-loop delay during each scenario, from its /metrics. */
function printLoopDelay(rows: RatedRow[]): void {
  console.log('\nEvent-loop delay of the store during each scenario (beyond 10 ms sampling)');
  console.log('scenario                    engine      conns   p99 ms   max ms');
  for (const r of rows) {
    if (!r.loop) continue;
    console.log(
      `${r.scenario.padEnd(26)}  ${r.engine.padEnd(9)} ${String(r.connections).padStart(5)} ${String(r.loop.p99Ms).padStart(8)} ${String(r.loop.maxMs).padStart(8)}`,
    );
  }
}

/**
 * The server CPU each answer cost, the store's next to the bare route's: unlike req/s, not moved by the
 * share of the two cores the load generator takes, nor by a neighbour's burst.
 */
function cpuPerRequest(store: Measured, base: Measured | undefined): string {
  const s = store.cpuMsPerRequest;
  const b = base?.cpuMsPerRequest;
  if (s === undefined || b === undefined || s === 0) return '';
  return `; server CPU ${s} ms per batch, the baseline's ${b} ms per request (${(b / s).toFixed(2)}× by CPU)`;
}

/** The cache-miss targets against this run's figures; a machine this noisy can miss one by its neighbours. */
function printTargets(rows: RatedRow[], prepared: Prepared[]): void {
  const verdict = (ok: boolean) => (ok ? 'meets' : 'MISSES');
  console.log('\nTargets (docs/benchmark.md, "Targets")');
  // The ratio target goes with the catalogue's size: 0.3× at 10,000 products, 0.1× at 100,000.
  const ratioTarget = productCount >= 100_000 ? TARGETS.cacheMissRatio100k : TARGETS.cacheMissRatio10k;
  // Judged on the ratio as measured: the table's, rounded to two places, would call 0.096 a 0.1.
  const exact = (rps: number, base: number | undefined) => (base ? rps / base : 0);
  for (const r of rows.filter((x) => x.scenario === CACHE_MISS)) {
    const base = rows.find((b) => b.scenario === BASELINE && b.connections === r.connections);
    const ratio = exact(r.rps, base?.rps);
    console.log(
      `  ${CACHE_MISS} at ${productCount.toLocaleString('en-US')} on ${r.engine}, ${r.connections} conns: ${ratio.toFixed(3)}× baseline (≥ ${ratioTarget}: ${verdict(ratio >= ratioTarget)}), p99 ${r.p99} ms${r.connections === 10 ? ` (< ${TARGETS.cacheMissP99Ms}: ${verdict(r.p99 < TARGETS.cacheMissP99Ms)})` : ''}${cpuPerRequest(r, base)}`,
    );
  }
  for (const p of prepared) {
    for (const h of p.http100k) {
      const ratio = exact(h.cacheMiss.rps, h.baseline.rps);
      console.log(
        `  ${CACHE_MISS} at 100,000 on ${h.engine}, ${h.connections} conns: ${ratio.toFixed(3)}× its baseline (≥ ${TARGETS.cacheMissRatio100k}: ${verdict(ratio >= TARGETS.cacheMissRatio100k)}), p99 ${h.cacheMiss.p99} ms${h.connections === 10 ? ` (< ${TARGETS.cacheMissP99Ms}: ${verdict(h.cacheMiss.p99 < TARGETS.cacheMissP99Ms)})` : ''}, event loop max ${h.cacheMiss.loop?.maxMs ?? '?'} ms${cpuPerRequest(h.cacheMiss, h.baseline)}`,
      );
    }
    const t = p.fts[100_000];
    if (t) {
      console.log(
        `  in-process at 100,000 on ${p.engine}: text + size p99 ${t.filtered.p99} ms, new word pairs p99 ${t.distinctWords.p99} ms (< ${TARGETS.filteredP99Ms}: ${verdict(Math.max(t.filtered.p99, t.distinctWords.p99) < TARGETS.filteredP99Ms)}), uncached facets p99 ${t.facetsUncached.p99} ms (< ${TARGETS.facetsP99Ms}: ${verdict(t.facetsUncached.p99 < TARGETS.facetsP99Ms)}), prefixes p99 ${t.prefixes.p99} ms and phrases p99 ${t.phrases.p99} ms (< ${TARGETS.prefixPhraseP99Ms}: ${verdict(Math.max(t.prefixes.p99, t.phrases.p99) < TARGETS.prefixPhraseP99Ms)})`,
      );
    }
  }
  const worst = Math.max(
    0,
    ...rows.map((r) => r.loop?.maxMs ?? 0),
    ...prepared.flatMap((p) => p.http100k.map((h) => h.cacheMiss.loop?.maxMs ?? 0)),
  );
  console.log(
    `  longest event-loop stall under load: ${worst} ms (< ${TARGETS.loopStallMs}: ${verdict(worst < TARGETS.loopStallMs)})`,
  );
}

await main();
