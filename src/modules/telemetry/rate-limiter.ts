/**
 * A fixed-window counter per key (client IP) in memory: at most `limit` hits per `windowMs`. Enough for one
 * process; public report endpoints use it so a noisy or hostile client cannot flood the tables.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly opts: { limit: number; windowMs: number; now?: () => number; maxKeys?: number },
  ) {}

  /** Counts a hit for `key`; false when the key is over its limit in this window. */
  take(key: string): boolean {
    const now = this.opts.now?.() ?? Date.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.opts.windowMs) {
      if (this.windows.size >= (this.opts.maxKeys ?? 10_000)) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return w.count <= this.opts.limit;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) {
      if (now - w.start >= this.opts.windowMs) this.windows.delete(key);
    }
    // Still full (many distinct addresses in one window): forget the oldest rather than grow without bound.
    if (this.windows.size >= (this.opts.maxKeys ?? 10_000)) this.windows.clear();
  }
}

/** Per-IP limits of the public report endpoints: client error reports (tRPC) and web vitals (HTTP). */
export type TelemetryLimits = { errorReports: FixedWindowLimiter; vitals: FixedWindowLimiter };

export function createTelemetryLimits(): TelemetryLimits {
  return {
    errorReports: new FixedWindowLimiter({ limit: 20, windowMs: 60_000 }),
    vitals: new FixedWindowLimiter({ limit: 30, windowMs: 60_000 }),
  };
}
