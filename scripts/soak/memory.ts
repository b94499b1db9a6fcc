/**
 * The memory rule for the load run. RSS is sampled once a second from /proc/PID/status. The first third
 * is warm-up (JIT, SQLite page cache, bounded caches filling) and is ignored. Memory is called bounded
 * when the median of the last third is at most max(10 % of the middle third's median, 16 MiB) above the
 * middle third's median: a leak proportional to traffic grows steadily and fails this, while the noise of
 * garbage collection (tens of MiB up and down on a 2-core machine) does not. Runs with fewer than
 * MIN_SAMPLES samples are reported but not judged: the server takes 25 to 40 s of full load to reach
 * its plateau (V8 heap, SQLite page cache, its bounded response caches filling with distinct pages), so
 * a shorter run (CI's 10 s) cannot tell warm-up from a leak.
 */
export const MIN_SAMPLES = 50;
export const GROWTH_FRACTION = 0.1;
export const GROWTH_FLOOR_KB = 16 * 1024;

export type RssVerdict = {
  ok: boolean;
  /** False when the run was too short to judge (ok is then true). */
  judged: boolean;
  samples: number;
  firstMb: number;
  peakMb: number;
  lastMb: number;
  middleMedianMb: number;
  lastMedianMb: number;
  growthMb: number;
  allowedMb: number;
  rule: string;
};

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;

export function judgeRss(samplesKb: readonly number[]): RssVerdict {
  const n = samplesKb.length;
  const third = Math.floor(n / 3);
  const middle = samplesKb.slice(third, 2 * third);
  const last = samplesKb.slice(2 * third);
  const middleMedian = middle.length > 0 ? median(middle) : 0;
  const lastMedian = last.length > 0 ? median(last) : 0;
  const allowed = Math.max(GROWTH_FRACTION * middleMedian, GROWTH_FLOOR_KB);
  const growth = lastMedian - middleMedian;
  const judged = n >= MIN_SAMPLES;
  return {
    ok: !judged || growth <= allowed,
    judged,
    samples: n,
    firstMb: mb(samplesKb[0] ?? 0),
    peakMb: mb(Math.max(0, ...samplesKb)),
    lastMb: mb(samplesKb[n - 1] ?? 0),
    middleMedianMb: mb(middleMedian),
    lastMedianMb: mb(lastMedian),
    growthMb: mb(growth),
    allowedMb: mb(allowed),
    rule: `median RSS of the last third ≤ median of the middle third + max(${GROWTH_FRACTION * 100} %, ${GROWTH_FLOOR_KB / 1024} MiB); first third is warm-up; judged from ${MIN_SAMPLES} samples (1 a second)`,
  };
}
