/** Writes docs/reliability.md from a full soak run: the figures and every check, never by hand. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { appRoot } from '../../src/app-root.js';
import { GROWTH_FLOOR_KB, GROWTH_FRACTION } from './memory.js';
import type { StepResult } from './step.js';
import type { LoadFigures } from './steps/load.js';

export type Report = {
  startedAt: Date;
  totalS: number;
  cores: number;
  cpuModel: string;
  /** os.loadavg() when the run started and ended: other work on the machine skews the figures. */
  loadAvg: { start: number[]; end: number[] };
  products: number;
  load: LoadFigures | null;
  results: StepResult[];
};

const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(1) : String(Math.round(v))) : '–');

function loadSection(load: LoadFigures, products: number): string[] {
  const e = load.errors;
  const rss = load.rss;
  return [
    '## Load',
    '',
    `${load.shoppers} concurrent shoppers for ${load.durationS} s against the production build on a generated catalogue of ${products.toLocaleString('en-US')} products, after a ${load.warmUpS} s warm-up at the same load that is left out of the latency figures and the memory samples (JIT, SQLite's page cache and the server's bounded response caches fill during it; ${load.warmUpFailures} of its requests failed). Each shopper loops: the catalogue's first page, a filtered page with its facet counts (one batched request, as the client sends it), a text search, a product's detail by id and that product's page HTML. ${Math.round(load.checkoutRate * 100)} % of loops then check out in demo payment mode with the client's calls: quote, create the order, the /testpayment page, confirm the demo payment, the result page and its order. Shoppers do not pause between requests (the client's 2 s on /testpayment is skipped), so this is a saturation test: latency below includes queueing behind ${load.shoppers} busy connections. The shoppers open their ${load.shoppers} keep-alive connections together when the measured phase starts. Node accepts one new connection per turn of its event loop, so while the first shoppers already saturate the server, the last connections wait in the kernel's accept queue, which can take seconds (the rare large values in the max column). A reverse proxy that keeps a pool of connections to the store avoids this (docs/deployment.md).`,
    '',
    `- Requests: ${load.requests.toLocaleString('en-US')} (${load.rps.toFixed(0)} per second)`,
    `- Failed requests: ${e.server5xx + e.network + e.unexpected4xx + e.other} (5xx: ${e.server5xx}, network errors: ${e.network}, unexpected 4xx: ${e.unexpected4xx}, unreadable answers: ${e.other})`,
    ...grouped(load.errorSamples)
      .slice(0, 5)
      .map(
        ([text, n]) => `  - ${text}${n > 1 ? ` (×${n} among the first ${load.errorSamples.length})` : ''}`,
      ),
    `- Orders: ${load.ordersCreated} created, ${load.ordersPaid} paid; ${load.paidMissing === 0 ? 'every paid one was then found paid in the database' : `**${load.paidMissing} paid ones were missing or not paid in the database**`}`,
    '',
    '| request | count | p50 ms | p95 ms | p99 ms | max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...load.latency.map(
      (r) =>
        `| ${r.kind} | ${r.count.toLocaleString('en-US')} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${ms(r.max)} |`,
    ),
    '',
    '### Memory',
    '',
    `The server's resident memory (VmRSS from /proc/PID/status) was sampled once a second. Rule: the first third of the samples is warm-up; memory is bounded when the median of the last third is at most max(${GROWTH_FRACTION * 100} % of the middle third's median, ${GROWTH_FLOOR_KB / 1024} MiB) above the middle third's median. A leak that grows with traffic fails it; garbage-collector swings do not.`,
    '',
    `- Verdict: **${!rss.judged ? 'not judged (run too short)' : rss.ok ? 'bounded' : 'GROWING'}**: middle-third median ${rss.middleMedianMb} MiB, last-third median ${rss.lastMedianMb} MiB, growth ${rss.growthMb} MiB (allowed ${rss.allowedMb} MiB)`,
    `- First sample ${rss.firstMb} MiB, peak ${rss.peakMb} MiB, last ${rss.lastMb} MiB, ${rss.samples} samples`,
    '',
    'Samples in MiB, one per second:',
    '',
    '```',
    ...chunk(load.rssSamplesMb, 20).map((row) => row.map((v) => String(v).padStart(4)).join(' ')),
    '```',
    '',
  ];
}

/** Identical error texts once each, with how often they came, most frequent first. */
function grouped(texts: readonly string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

function chunk<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export function writeReport(report: Report): string {
  // As the run's exit code: a skipped step proved nothing, so it does not count as passed.
  const passed = report.results.every((r) => r.status === 'PASS');
  const lines = [
    '# Reliability: proofs under load and faults',
    '',
    `<!-- Generated by \`npm run soak\` (scripts/soak/run.ts). Do not edit: run the soak again. -->`,
    '',
    `Run on ${report.startedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC, ${report.cores} cores (${report.cpuModel}), Node ${process.version}, ${process.platform}; ${report.totalS.toFixed(0)} s in all; load average ${report.loadAvg.start.map((v) => v.toFixed(1)).join(' ')} at the start and ${report.loadAvg.end.map((v) => v.toFixed(1)).join(' ')} at the end (other work on the machine, if any, slows the figures). The load generator runs on the same machine as the server and shares its cores, so absolute figures are pessimistic; what must hold is zero failed requests, bounded memory and every check below.`,
    '',
    `**Overall: ${passed ? 'PASS' : 'FAIL'}**`,
    '',
    '| step | result | time |',
    '| --- | --- | ---: |',
    ...report.results.map((r) => `| ${r.name} | ${r.status} | ${(r.ms / 1000).toFixed(1)} s |`),
    '',
    ...(report.load ? loadSection(report.load, report.products) : []),
    '## Faults',
    '',
    'After every kill the server is started again on the same data folder, and the soak checks that folder directly: `PRAGMA integrity_check` is ok; the catalogue is wholly one version (its checksum, over every product and media item, equals the old or the new one); there is no upload file without a media row (nor a leftover temporary file) and no media row without its file; every order a shopper was told was paid, in this and every earlier step, is present and paid.',
    '',
    '**When PostgreSQL restarts** (a restart, a failover, a managed database\'s maintenance, `pg_terminate_backend`), every store process keeps running. A request whose connection the server ends, inside a transaction or not, fails alone: the shopper gets 503 "The store is busy right now. Please try again in a moment." with `Retry-After: 2`, and nothing of its transaction is kept; a background job logs the failure and runs again at its next turn. The pool discards the broken connection and opens new ones as soon as the server takes them, so the store answers again by itself, with no restart; meanwhile `/readyz` answers 503 naming the database (`"failed":"database"`), for the load balancer or monitor. The storefront\'s revision watch listens again within a second of the server coming back (its poll keeps the caches right until then). An order whose commit reached the server as its connection ended may exist though its shopper was asked to try again: it stays pending, and nobody is charged for it. `src/database-restart.test.ts` proves this in every PostgreSQL test run (a real store process, real HTTP, `pg_terminate_backend` under checkouts, then the database away for a while), and the soak\'s PostgreSQL step under load.',
    '',
    ...report.results
      .filter((r) => r.name.startsWith('Fault'))
      .flatMap((r) => [
        `### ${r.name}: ${r.status}`,
        '',
        ...r.lines.map(
          (l) =>
            `- ${l.startsWith('ok  ') ? `ok: ${l.slice(4).trimStart()}` : l.startsWith('FAIL') ? `**FAIL**: ${l.slice(5).trimStart()}` : l.startsWith('SKIP') ? `SKIP: ${l.slice(5).trimStart()}` : l.trim()}`,
        ),
        '',
      ]),
    '## Running it',
    '',
    '- `npm run soak`: builds, then the full run above (200 shoppers for 20 s of warm-up and 60 s measured, 10,000 products, every fault) and rewrites this file.',
    '- `npm run soak -- --ci`: 50 shoppers for 10 s on 2,000 products and the same faults with fewer repetitions, under 90 s; does not touch this file.',
    '- `--shoppers N`, `--duration S`, `--products N`, `--checkout-rate F`, `--only load,sigterm,…`, `--no-doc`, `--keep` (keep the data folder), `--simulate-full-disk`, `--allow-simulated-disk-full`.',
    '- The full-disk step mounts a tmpfs (or a loop-mounted ext4 image) and so needs root (CI runs as root). Without it the step runs a simulation (RLIMIT_FSIZE on the server process, labelled SIMULATED) and FAILS as not proven, unless the run accepts the simulation with `--allow-simulated-disk-full` (or asks for it with `--simulate-full-disk`).',
    '- The locked-database step holds the write lock from another process twice: for less than the lock budget (writes must wait and succeed after the release) and for longer (writes must answer 503 once the budget is spent, not before); reads and /healthz must answer quickly throughout.',
    "- The PostgreSQL step starts a store process of its own on a throwaway database of the machine's PostgreSQL server (TEST_DATABASE_URL's server, else 127.0.0.1:5432) with the demo catalogue, and ends every connection of the store three times (pg_terminate_backend) while shoppers create and pay orders: the process must live, the requests met by the fault answer 503 with Retry-After (or succeed), /readyz and every later request succeed with no restart, and no order is lost or doubled. Without a PostgreSQL server it is skipped, which fails the run.",
    '- Exit code 1 when any step fails or is skipped.',
    '',
  ];
  const file = path.join(appRoot, 'docs', 'reliability.md');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
