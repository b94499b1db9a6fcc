/**
 * Two trees' cache-miss streams interleaved on one machine: each tree's built store runs on its own kept
 * catalogue (made by cache-miss-only.ts), and the load goes to one, then the other, in short slices, round
 * after round. Whatever else the machine does in the meantime falls on both alike, so their ratio holds
 * where back-to-back runs of cache-miss-only.ts moved by a factor of two (helpers' tests beside them).
 *
 *   npx tsx scripts/bench/cache-miss-ab.ts BEFORE_TREE:BEFORE_DIR AFTER_TREE:AFTER_DIR [rounds] [seconds]
 *
 * A tree is a checkout with `npm run build` done; its stream is its own scripts/bench/cache-miss.ts, so each
 * tree is asked what its storefront offers (the later one's colour filters, say). CPU_PROF_DIR=/tmp/prof writes
 * each store's CPU profile to /tmp/prof/before and /tmp/prof/after, and prints every batch each side answered
 * (the warm-up's too), to divide a profile's time by.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type NodeProcess, spawnNode } from '../launcher/node-process.js';
import { freePort, waitForHealthy } from '../launcher/server.js';
import { SERVER_NODE_FLAGS } from '../server-flags.js';
import { load } from './http-load.js';
import { BENCH_METRICS_TOKEN } from './loop-delay.js';

type Side = { name: string; tree: string; dir: string };
type Running = Side & { proc: NodeProcess; url: string; next: (seed: number) => () => string };

function sideOf(arg: string | undefined, name: string): Side {
  const [tree, dir] = (arg ?? '').split(':');
  if (!tree || !dir)
    throw new Error('usage: cache-miss-ab.ts BEFORE_TREE:BEFORE_DIR AFTER_TREE:AFTER_DIR [rounds] [seconds]');
  return { name, tree: path.resolve(tree), dir: path.resolve(dir) };
}

async function start(side: Side): Promise<Running> {
  const port = await freePort();
  const profile = process.env.CPU_PROF_DIR
    ? ['--cpu-prof', '--cpu-prof-dir', path.join(process.env.CPU_PROF_DIR, side.name)]
    : [];
  const proc = spawnNode([...SERVER_NODE_FLAGS, ...profile, path.join(side.tree, 'dist', 'server.js')], {
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: side.dir,
      LOG_LEVEL: 'warn',
      DEMO_CATALOGUE: 'false',
      PUBLIC_QUERY_MS_PER_SECOND: '0',
      METRICS_TOKEN: BENCH_METRICS_TOKEN,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealthy(`${url}/healthz`, proc, 120_000);
  const stream = (await import(pathToFileURL(path.join(side.tree, 'scripts/bench/cache-miss.ts')).href)) as {
    distinctListingPaths: (seed: number) => () => string;
  };
  return { ...side, proc, url, next: stream.distinctListingPaths };
}

const [beforeArg, afterArg, roundsArg = '10', secondsArg = '2'] = process.argv.slice(2);
const sides = [sideOf(beforeArg, 'before'), sideOf(afterArg, 'after')];
const rounds = Number(roundsArg);
const seconds = Number(secondsArg);
const running: Running[] = [];
try {
  for (const side of sides) running.push(await start(side));
  // As cache-miss-only.ts: a warm-up stream of its own (seed 1), then the measured one (seed 110), which
  // each side carries on through the rounds without asking anything twice.
  const warm = await Promise.all(running.map((r) => load(`${r.url}/`, 10, 10, { nextPath: r.next(1) })));
  const streams = running.map((r) => r.next(110));
  const totals = running.map(() => ({ batches: 0, cpuMs: 0, seconds: 0 }));
  for (let round = 0; round < rounds; round++) {
    // Alternate which side goes first, so neither always follows the other's garbage collection.
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const r = running[i] as Running;
      const cpuBefore = r.proc.cpuMs() ?? 0;
      const m = await load(`${r.url}/`, 10, seconds, { nextPath: streams[i] });
      const t = totals[i] as { batches: number; cpuMs: number; seconds: number };
      t.batches += m.rps * seconds;
      t.cpuMs += (r.proc.cpuMs() ?? 0) - cpuBefore;
      t.seconds += seconds;
    }
  }
  const rates = totals.map((t) => t.batches / t.seconds);
  for (const [i, r] of running.entries()) {
    const t = totals[i] as { batches: number; cpuMs: number };
    console.log(
      `${r.name}: ${(rates[i] ?? 0).toFixed(0)} batches/s, ${(t.cpuMs / t.batches).toFixed(3)} ms CPU a batch (${r.tree})`,
    );
  }
  if (process.env.CPU_PROF_DIR)
    for (const [i, r] of running.entries())
      console.log(
        `${r.name}: ${Math.round((warm[i]?.rps ?? 0) * 10 + (totals[i]?.batches ?? 0))} batches in all`,
      );
  console.log(`after ÷ before: ${((rates[1] ?? 0) / (rates[0] ?? 1)).toFixed(3)}`);
} finally {
  await Promise.all(running.map((r) => r.proc.stop()));
}
