import { monitorEventLoopDelay } from 'node:perf_hooks';

/** How long callbacks waited for the one server thread, in milliseconds, since the last reading. */
export type LoopDelay = { samples: number; p50Ms: number; p99Ms: number; maxMs: number; meanMs: number };

export type LoopDelayMonitor = {
  /** The delays since the previous reading; the next reading starts afresh. */
  read(): LoopDelay;
  stop(): void;
};

/** Fine enough to see a 50 ms stall, coarse enough to cost nothing. */
const RESOLUTION_MS = 10;

/**
 * Node's own event-loop delay histogram. It records each sampling interval whole (a quiet loop reads 10 ms),
 * so the interval is taken off: what is reported is the wait beyond it.
 */
export function startLoopDelayMonitor(): LoopDelayMonitor {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const beyond = (ns: number) => Math.max(0, Math.round((ns / 1e6 - RESOLUTION_MS) * 100) / 100);
  return {
    read() {
      const samples = histogram.count;
      const reading =
        samples === 0
          ? { samples, p50Ms: 0, p99Ms: 0, maxMs: 0, meanMs: 0 }
          : {
              samples,
              p50Ms: beyond(histogram.percentile(50)),
              p99Ms: beyond(histogram.percentile(99)),
              maxMs: beyond(histogram.max),
              meanMs: beyond(histogram.mean),
            };
      histogram.reset();
      return reading;
    },
    stop() {
      histogram.disable();
    },
  };
}
