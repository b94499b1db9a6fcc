import type { CounterStore } from './counter-store.js';
import { FixedWindowLimiter, type SharedCounters } from './fixed-window-limiter.js';

/**
 * Per-IP limits of the public report endpoints: client error reports (tRPC) and web vitals (HTTP). Beside
 * request-limits.ts, not in telemetry/: telemetry stays below limits (decision 0014's stack).
 */
export type TelemetryLimits = { errorReports: FixedWindowLimiter; vitals: FixedWindowLimiter };

export function createTelemetryLimits(
  opts: { counters?: CounterStore; onStoreError?: (error: unknown) => void } = {},
): TelemetryLimits {
  const shared = (name: string): SharedCounters | undefined =>
    opts.counters && { store: opts.counters, name: `telemetry:${name}`, onError: opts.onStoreError };
  return {
    errorReports: new FixedWindowLimiter({ limit: 20, windowMs: 60_000, shared: shared('errors') }),
    vitals: new FixedWindowLimiter({ limit: 30, windowMs: 60_000, shared: shared('vitals') }),
  };
}
