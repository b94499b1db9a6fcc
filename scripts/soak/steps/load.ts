/** Step 1: many shoppers against the production build, with latency, errors, RSS and a paid-order audit. */
import { type LoopReading, scrapeLoopDelay } from '../../bench/loop-delay.js';
import { judgeRss, MIN_SAMPLES, type RssVerdict } from '../memory.js';
import { errorTotal, type LatencyRow, latencyTable, runShoppers } from '../shoppers.js';
import { Checks, fmtMs, type Soak, type StepResult } from '../step.js';
import { buyableProducts, integrity, missingPaidOrders, withDb } from '../store-checks.js';

export type LoadFigures = {
  shoppers: number;
  durationS: number;
  warmUpS: number;
  warmUpFailures: number;
  checkoutRate: number;
  requests: number;
  rps: number;
  errors: { server5xx: number; network: number; unexpected4xx: number; other: number };
  errorSamples: string[];
  latency: LatencyRow[];
  rss: RssVerdict;
  rssSamplesMb: number[];
  ordersCreated: number;
  ordersPaid: number;
  /** Paid orders the database did not have as paid afterwards (must be 0). */
  paidMissing: number;
  /** The server's event-loop delay over the measured run: the worst second's p99, and the longest wait. */
  eventLoop: LoopReading & { seconds: number };
};

/** The store's promise under load: no wait for the server thread longer than this under the soak's load. */
const LOOP_STALL_MS = 50;

export async function loadStep(
  soak: Soak,
  opts: { shoppers: number; durationS: number; checkoutRate: number; warmUpS: number },
): Promise<{ result: StepResult; figures: LoadFigures }> {
  const started = performance.now();
  const checks = new Checks();
  const products = await withDb(soak.dataDir, buyableProducts);

  // Warm-up outside the latency figures and the RSS samples: JIT, the SQLite page cache and the bounded
  // response caches filling take 25 to 40 s of full load, which a 60 s window would otherwise count as
  // growth. Its failures still count. CI's short run does not judge memory, so it only warms briefly.
  const warm = await runShoppers({
    port: soak.port,
    shoppers: opts.warmUpS > 5 ? opts.shoppers : 10,
    durationMs: opts.warmUpS * 1000,
    checkoutRate: opts.checkoutRate,
    products,
    seed: 7,
  });
  soak.paidSessions.push(...warm.paidSessions);

  const rssKb: number[] = [];
  const sample = () => {
    const kb = soak.server.rssKb();
    if (kb !== null) rssKb.push(kb);
  };
  sample();
  // /metrics resets at each scrape: one scrape a second gives each second's delay.
  const loops: LoopReading[] = [];
  const scrapeLoop = () => {
    void scrapeLoopDelay(`http://127.0.0.1:${soak.port}`)
      .then((r) => loops.push(r))
      .catch(() => undefined);
  };
  await scrapeLoopDelay(`http://127.0.0.1:${soak.port}`);
  const stats = await runShoppers({
    port: soak.port,
    shoppers: opts.shoppers,
    durationMs: opts.durationS * 1000,
    checkoutRate: opts.checkoutRate,
    products,
    seed: 1,
    onTick: () => {
      sample();
      scrapeLoop();
    },
  });
  loops.push(await scrapeLoopDelay(`http://127.0.0.1:${soak.port}`));
  const eventLoop = {
    p99Ms: Math.max(0, ...loops.map((l) => l.p99Ms)),
    maxMs: Math.max(0, ...loops.map((l) => l.maxMs)),
    seconds: loops.length,
  };
  soak.paidSessions.push(...stats.paidSessions);
  const latency = latencyTable(stats);
  const rss = judgeRss(rssKb);
  const rps = stats.requests / (stats.elapsedMs / 1000);
  const all = latency.find((r) => r.kind === 'all requests');

  checks.note(
    `${opts.shoppers} shoppers for ${opts.durationS} s: ${stats.requests} requests (${rps.toFixed(0)}/s), p50 ${fmtMs(all?.p50 ?? Number.NaN)}, p95 ${fmtMs(all?.p95 ?? Number.NaN)}, p99 ${fmtMs(all?.p99 ?? Number.NaN)}`,
  );
  for (const r of latency) {
    checks.note(
      `  ${r.kind.padEnd(22)} ${String(r.count).padStart(7)}  p50 ${fmtMs(r.p50).padStart(8)}  p95 ${fmtMs(r.p95).padStart(8)}  p99 ${fmtMs(r.p99).padStart(8)}`,
    );
  }
  const e = stats.errors;
  checks.check(
    errorTotal(warm) === 0,
    `no failed request during the ${opts.warmUpS} s warm-up (${warm.requests} requests, ${errorTotal(warm)} failed)`,
  );
  for (const s of warm.samples.slice(0, 3))
    checks.note(`  e.g. ${s.kind} at ${(s.atMs / 1000).toFixed(1)} s of warm-up: ${s.what}`);
  checks.check(
    errorTotal(stats) === 0,
    `no failed request (5xx ${e.server5xx}, network ${e.network}, unexpected 4xx ${e.unexpected4xx}, bad answer ${e.other})`,
  );
  for (const s of stats.samples.slice(0, 5))
    checks.note(`  e.g. ${s.kind} at ${(s.atMs / 1000).toFixed(1)} s: ${s.what}`);
  checks.check(
    stats.paidSessions.length > 0,
    `checkouts completed: ${stats.ordersCreated} orders created, ${stats.paidSessions.length} paid in demo mode`,
  );
  const loopText = `event-loop delay under load: worst second's p99 ${eventLoop.p99Ms} ms, longest wait ${eventLoop.maxMs} ms (${eventLoop.seconds} one-second readings from /metrics)`;
  // CI's 10 s run shares the machine with its own build and tests: it reports, a full run judges.
  if (soak.ci) checks.note(loopText);
  else checks.check(eventLoop.maxMs < LOOP_STALL_MS, `${loopText}; no stall over ${LOOP_STALL_MS} ms`);
  const rssText = `RSS ${rss.firstMb} → ${rss.lastMb} MiB (peak ${rss.peakMb}); median middle third ${rss.middleMedianMb}, last third ${rss.lastMedianMb} (growth ${rss.growthMb}, allowed ${rss.allowedMb} MiB, ${rss.samples} samples)`;
  if (!rss.judged)
    checks.note(`memory not judged, the run has fewer than ${MIN_SAMPLES} one-second samples: ${rssText}`);
  else checks.check(rss.ok, `memory bounded: ${rssText}`);
  const audit = await withDb(soak.dataDir, async (db) => ({
    missing: await missingPaidOrders(db, stats.paidSessions),
    integ: await integrity(db),
  }));
  checks.check(
    audit.missing.length === 0,
    `every order the shoppers paid is in the database and paid (${stats.paidSessions.length - audit.missing.length}/${stats.paidSessions.length})`,
  );
  checks.check(audit.integ === 'ok', `PRAGMA integrity_check after load: ${audit.integ}`);

  return {
    result: checks.result('Load: concurrent shoppers', started),
    figures: {
      shoppers: opts.shoppers,
      durationS: opts.durationS,
      warmUpS: opts.warmUpS,
      warmUpFailures: errorTotal(warm),
      checkoutRate: opts.checkoutRate,
      requests: stats.requests,
      rps,
      errors: stats.errors,
      errorSamples: stats.samples.map((s) => `${s.kind}: ${s.what}`),
      latency,
      rss,
      eventLoop,
      rssSamplesMb: rssKb.map((kb) => Math.round(kb / 1024)),
      ordersCreated: stats.ordersCreated,
      ordersPaid: stats.paidSessions.length,
      paidMissing: audit.missing.length,
    },
  };
}
