/**
 * `npm run soak`: proofs under load and under faults, against the production build (dist/server.js).
 *
 *   npm run soak                               200 shoppers for 60 s, every fault; rewrites docs/reliability.md
 *   npm run soak -- --ci                       50 shoppers for 10 s, smaller data; no doc (CI, under 90 s)
 *   npm run soak -- --shoppers 100 --duration 30 --products 5000
 *   npm run soak -- --only load,sigterm       some steps only (no doc)
 *   (pg-terminate runs a store of its own on a throwaway PostgreSQL database, the others on SQLite)
 *   npm run soak -- --simulate-full-disk      RLIMIT_FSIZE instead of mounting a small disk (no root)
 *   npm run soak -- --allow-simulated-disk-full  mount if possible, else accept the RLIMIT_FSIZE simulation
 *
 * Each step prints PASS, FAIL or SKIP with its checks; the exit code is 1 when any step did not pass: a
 * skipped step proved nothing, and a fault that could not be staged for real (the full disk needs root to
 * mount a small filesystem) fails unless the run was told to accept its simulation.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { appRoot } from '../../src/app-root.js';
import { freePort } from '../launcher/server.js';
import { seedFolder } from './fixtures.js';
import { writeReport } from './report.js';
import { startSoakServer } from './server.js';
import type { Soak, StepResult } from './step.js';
import { diskFullStep } from './steps/disk-full.js';
import { importKillStep } from './steps/import-kill.js';
import { type LoadFigures, loadStep } from './steps/load.js';
import { lockedDbStep } from './steps/locked-db.js';
import { orderKillStep } from './steps/order-kill.js';
import { pgTerminateStep } from './steps/pg-terminate.js';
import { sigtermStep } from './steps/sigterm.js';
import { uploadKillStep } from './steps/upload-kill.js';
import { catalogueState, withDb } from './store-checks.js';

const { values: args } = parseArgs({
  options: {
    ci: { type: 'boolean', default: false },
    shoppers: { type: 'string' },
    duration: { type: 'string' },
    products: { type: 'string' },
    'checkout-rate': { type: 'string', default: '0.15' },
    only: { type: 'string' },
    'no-doc': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    'simulate-full-disk': { type: 'boolean', default: false },
    'allow-simulated-disk-full': { type: 'boolean', default: false },
  },
});

const ci = args.ci === true;
const shoppers = Number(args.shoppers ?? (ci ? 50 : 200));
const durationS = Number(args.duration ?? (ci ? 10 : 60));
const productCount = Number(args.products ?? (ci ? 2000 : 10_000));
const checkoutRate = Number(args['checkout-rate']);
const only = args.only ? new Set(args.only.split(',').map((s) => s.trim())) : null;
const STEP_IDS = [
  'load',
  'order-kill',
  'import-kill',
  'upload-kill',
  'sigterm',
  'locked-db',
  'pg-terminate',
  'disk-full',
];
if (only) {
  const unknown = [...only].filter((s) => !STEP_IDS.includes(s));
  if (unknown.length > 0)
    throw new Error(`unknown step(s) ${unknown.join(', ')}; steps: ${STEP_IDS.join(', ')}`);
}
if (![shoppers, durationS, productCount, checkoutRate].every((n) => Number.isFinite(n) && n >= 0)) {
  throw new Error('--shoppers, --duration, --products and --checkout-rate take numbers');
}

function print(result: StepResult): void {
  console.log(`\n${result.status}  ${result.name}  (${(result.ms / 1000).toFixed(1)} s)`);
  for (const line of result.lines) console.log(`  ${line}`);
}

async function main(): Promise<number> {
  if (!existsSync(path.join(appRoot, 'dist', 'server.js'))) {
    console.error('dist/server.js is missing: run `npm run build` first (`npm run soak` does).');
    return 1;
  }
  const startedAt = new Date();
  const loadAtStart = loadavg();
  const t0 = performance.now();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'store-soak-'));
  console.log(
    `Soak${ci ? ' (CI)' : ''}: ${productCount.toLocaleString('en-US')} products, ${shoppers} shoppers for ${durationS} s, checkout rate ${checkoutRate}; ${cpus().length} cores, load average ${loadAtStart.map((v) => v.toFixed(1)).join(' ')}; data ${dataDir}`,
  );
  await seedFolder(dataDir, productCount);
  const port = await freePort();
  const soak: Soak = {
    ci,
    dataDir,
    port,
    server: await startSoakServer({ dataDir, port }),
    paidSessions: [],
    catalogue: { name: 'generated', state: await withDb(dataDir, catalogueState) },
    async restart(env) {
      soak.server = await startSoakServer({ dataDir, port, ...(env ? { env } : {}) });
      return soak.server;
    },
  };

  const results: StepResult[] = [];
  let load: LoadFigures | null = null;
  const steps: Array<[string, () => Promise<StepResult>]> = [
    [
      'load',
      async () => {
        const out = await loadStep(soak, { shoppers, durationS, checkoutRate, warmUpS: ci ? 2 : 20 });
        load = out.figures;
        return out.result;
      },
    ],
    ['order-kill', () => orderKillStep(soak)],
    ['import-kill', () => importKillStep(soak)],
    ['upload-kill', () => uploadKillStep(soak)],
    ['sigterm', () => sigtermStep(soak)],
    ['locked-db', () => lockedDbStep(soak)],
    // On a PostgreSQL database of its own, with a store process of its own.
    ['pg-terminate', () => pgTerminateStep(soak)],
    [
      'disk-full',
      () =>
        diskFullStep({
          ci,
          simulate: args['simulate-full-disk'] === true,
          allowSimulated: args['allow-simulated-disk-full'] === true,
        }),
    ],
  ];
  try {
    for (const [id, run] of steps) {
      if (only && !only.has(id)) continue;
      const stepStart = performance.now();
      let result: StepResult;
      try {
        result = await run();
      } catch (error) {
        result = {
          name: id,
          status: 'FAIL',
          lines: [
            `FAIL the step itself failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          ],
          ms: performance.now() - stepStart,
        };
        // A step that died may have left the server down; the next one needs it.
        if (!soak.server.running()) {
          await soak.restart().catch(() => undefined);
        }
      }
      results.push(result);
      print(result);
    }
  } finally {
    await soak.server.stop();
    if (args.keep) console.log(`\nKept the data folder: ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }

  // A skipped step proved nothing: it fails the run as surely as a failed one.
  const failed = results.filter((r) => r.status !== 'PASS');
  const totalS = (performance.now() - t0) / 1000;
  console.log(
    `\n${failed.length === 0 ? 'SOAK PASSED' : `SOAK FAILED: ${failed.map((r) => (r.status === 'SKIP' ? `${r.name} (skipped: not proven)` : r.name)).join('; ')}`} in ${totalS.toFixed(0)} s`,
  );
  if (!ci && !only && !args['no-doc']) {
    const file = writeReport({
      startedAt,
      totalS,
      cores: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      loadAvg: { start: loadAtStart, end: loadavg() },
      products: productCount,
      load,
      results,
    });
    console.log(`Wrote ${path.relative(process.cwd(), file)}`);
  }
  return failed.length === 0 ? 0 : 1;
}

process.exitCode = await main();
