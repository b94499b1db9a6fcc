/**
 * The two-process run: the same PostgreSQL store behind the bench's round-robin balancer, first one process,
 * then two, loaded with the same scenarios. On a 2-core machine the load generator, the balancer, the
 * stores and PostgreSQL share the two cores, so this proves that two processes serve one shop correctly
 * side by side, not that throughput doubles.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type NodeProcess, spawnNode } from '../launcher/node-process.js';
import { freePort, type ServerProcess, startServer, waitForHealthy } from '../launcher/server.js';
import { copyDemoImages } from './generate-catalogue.js';
import { load, type Measured, type Scenario } from './http-load.js';

export type ScaleOutRow = Measured & { scenario: string; connections: number; processes: number };

/** The scenarios a balancer run loads: a listing, a search and a server-rendered page. */
export const SCALE_OUT_SCENARIOS = ['catalogue first page', 'text search', 'product page HTML'];

async function startBalancer(targets: string[]): Promise<{ url: string; proc: NodeProcess }> {
  const port = await freePort();
  const proc = spawnNode(['--import', 'tsx', 'scripts/bench/load-balancer.ts', String(port), ...targets]);
  await proc.waitForOutput(/balancing on/);
  const url = `http://127.0.0.1:${port}`;
  await waitForHealthy(`${url}/healthz`, proc);
  return { url, proc };
}

export async function runScaleOut(opts: {
  /** The PostgreSQL store already running (warm); the second process joins it on the same database. */
  first: ServerProcess;
  env: Record<string, string>;
  scenarios: Scenario[];
  connectionLevels: number[];
  duration: number;
}): Promise<ScaleOutRow[]> {
  // Its own data folder: a store holds its folder's lock; the database is what the two share.
  const secondDir = mkdtempSync(path.join(tmpdir(), 'store-bench-second-'));
  copyDemoImages(secondDir);
  const second = await startServer({ entry: 'dist', dataDir: secondDir, env: opts.env });
  const one = await startBalancer([opts.first.baseUrl]);
  const two = await startBalancer([opts.first.baseUrl, second.baseUrl]);
  const chosen = opts.scenarios.filter((s) => SCALE_OUT_SCENARIOS.includes(s.name));
  const rows: ScaleOutRow[] = [];
  try {
    // The second process's caches and JIT warm up as the first's did.
    for (const s of chosen) await load(`${two.url}${s.path}`, 10, 1);
    for (const connections of opts.connectionLevels) {
      for (const s of chosen) {
        // One after the other per scenario, so a noisy neighbour hits both sides alike.
        for (const [processes, balancer] of [
          [1, one],
          [2, two],
        ] as const) {
          const measured = await load(`${balancer.url}${s.path}`, connections, opts.duration);
          rows.push({ scenario: s.name, connections, processes, ...measured });
        }
      }
    }
  } finally {
    await Promise.all([one.proc.stop(), two.proc.stop(), second.stop()]);
    rmSync(secondDir, { recursive: true, force: true });
  }
  return rows;
}

export function printScaleOut(rows: ScaleOutRow[]): void {
  console.log(
    '\nOne vs two PostgreSQL store processes behind one round-robin balancer (scripts/bench/load-balancer.ts)',
  );
  console.log(
    'scenario                    conns  processes     req/s   p50 ms   p99 ms  errors  × one process',
  );
  for (const r of rows) {
    const single = rows.find(
      (o) => o.processes === 1 && o.scenario === r.scenario && o.connections === r.connections,
    );
    const ratio = r.processes === 2 && single ? (r.rps / single.rps).toFixed(2) : '';
    console.log(
      `${r.scenario.padEnd(26)} ${String(r.connections).padStart(5)} ${String(r.processes).padStart(10)} ${r.rps.toFixed(0).padStart(9)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.errors + r.non2xx).padStart(7)}  ${ratio}`,
    );
  }
  console.log(
    'On 2 cores the load generator, the balancer, both stores and PostgreSQL share the same two cores: this\n' +
      'shows that two processes serve one shop side by side, not that throughput scales linearly.',
  );
}
