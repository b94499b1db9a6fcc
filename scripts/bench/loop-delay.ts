/**
 * The store's event-loop delay over a stretch of load, read from its GET /metrics (the summary resets at
 * each scrape): scrape once to start afresh, load, scrape again.
 */
export type LoopReading = { p99Ms: number; maxMs: number };

/** Passed to the stores the bench and the soak start, so they can read /metrics. */
export const BENCH_METRICS_TOKEN = `bench-metrics-${process.pid}-${Date.now()}-token`;

export async function scrapeLoopDelay(baseUrl: string, token = BENCH_METRICS_TOKEN): Promise<LoopReading> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
  const text = await res.text();
  const seconds = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 'NaN');
  return {
    p99Ms:
      Math.round(seconds(/^store_event_loop_delay_seconds\{quantile="0\.99"\} (\S+)$/m) * 1000 * 10) / 10,
    maxMs: Math.round(seconds(/^store_event_loop_delay_max_seconds (\S+)$/m) * 1000 * 10) / 10,
  };
}
