/**
 * Counters over fixed time windows, kept in memory (one process; a shared store replaces this when the
 * store scales out). Fixed windows are simple and enough at sign-in rates.
 */
export type WindowCounter = {
  count: number;
  /** When the window ends and the counter starts again from nothing. */
  resetAt: number;
  /** When the count last went up. */
  lastAt: number;
  /** Set once the count has been reported as over its limit, so the log says so once per window. */
  announced: boolean;
};

const MAX_TRACKED = 50_000;

export class WindowCounters {
  private readonly map = new Map<string, WindowCounter>();

  constructor(private readonly windowMs: number) {}

  /** The counter in its current window, or null when there is none. */
  get(key: string, t: number): WindowCounter | null {
    const c = this.map.get(key);
    if (!c || c.resetAt <= t) return null;
    return c;
  }

  bump(key: string, t: number): WindowCounter {
    let c = this.get(key, t);
    if (!c) {
      if (this.map.size >= MAX_TRACKED) this.prune(t);
      c = { count: 0, resetAt: t + this.windowMs, lastAt: t, announced: false };
      this.map.set(key, c);
    }
    c.count += 1;
    c.lastAt = t;
    return c;
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  private prune(t: number): void {
    for (const [k, c] of this.map) if (c.resetAt <= t) this.map.delete(k);
    // Still full (an attack from very many addresses): forget the oldest rather than grow without bound.
    const excess = this.map.size - MAX_TRACKED + 1;
    if (excess > 0) for (const k of [...this.map.keys()].slice(0, excess)) this.map.delete(k);
  }
}

/** Takes back one count (an attempt that turned out to succeed); the object may already be out of the map. */
export function refund(c: WindowCounter): void {
  c.count = Math.max(0, c.count - 1);
}

/** True the first time in its window that the counter is at or over the limit. */
export function announceOnce(c: WindowCounter, limit: number): boolean {
  if (c.announced || c.count < limit) return false;
  c.announced = true;
  return true;
}
