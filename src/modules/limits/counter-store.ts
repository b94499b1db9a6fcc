/**
 * Counters over fixed time windows, the one primitive behind the sign-in throttle and the per-address limits
 * (telemetry reports, checkout sessions). Three stores implement it: in memory (one process, the default on
 * SQLite), in the database (several processes on one PostgreSQL) and in Redis (REDIS_URL). Decision 0017.
 *
 * Every change is one atomic step in the store, never a read followed by a write, so processes (and parallel
 * requests in one process) cannot both pass a limit that only one of them may pass. Times are the caller's
 * clock in ms since the epoch, so the windows follow the app's clock (a test's manual clock too).
 */
export type CounterState = {
  count: number;
  /** When the window ends and the counter starts again from nothing. */
  resetAt: number;
  /** When the count last went up. */
  lastAt: number;
};

export type TakeRule = {
  /** Takes allowed freely in one window. */
  limit: number;
  windowMs: number;
  /**
   * Past the limit, a further take is allowed once `backoffMs` has passed since the last one, doubling with
   * each take over the limit (the sign-in throttle's wait for unknown browsers). Without it: refused.
   */
  backoffMs?: number;
};

export type TakeResult =
  /** Counted; the counter as it is now. */
  | { taken: true; counter: CounterState }
  /** Not counted; the counter that refused it. */
  | { taken: false; counter: CounterState };

export interface CounterStore {
  /** Adds one to `key` in its current window (a new window when there is none) if `rule` allows it. */
  take(key: string, rule: TakeRule, now: number): Promise<TakeResult>;
  /** The counter in its current window, or null when there is none. */
  peek(key: string, now: number): Promise<CounterState | null>;
  /** Gives back one take made in the window ending at `resetAt`; nothing once a new window has begun. */
  refund(key: string, resetAt: number): Promise<void>;
  /** Forgets the counter. */
  remove(key: string): Promise<void>;
  /**
   * True for exactly one caller per window: the first that asks while the count is at or over `limit`, so
   * "over its limit" is logged once per window whichever process sees it.
   */
  announce(key: string, limit: number, now: number): Promise<boolean>;
  /** Drops counters whose window has ended (the database's; the others expire by themselves). */
  prune(now: number): Promise<number>;
  close(): Promise<void>;
}

/** Past 2^20 the wait outlasts any window anyway; the cap keeps the arithmetic in range on every store. */
export const MAX_BACKOFF_DOUBLINGS = 20;

/**
 * Until when a counter over its limit refuses a take under `rule` (the window's end without backoff). The
 * database and Redis stores compute the same in SQL and Lua.
 */
export function refusedUntil(counter: CounterState, rule: TakeRule): number {
  if (rule.backoffMs === undefined) return counter.resetAt;
  const doublings = Math.min(Math.max(counter.count - rule.limit, 0), MAX_BACKOFF_DOUBLINGS);
  return Math.min(counter.lastAt + rule.backoffMs * 2 ** doublings, counter.resetAt);
}

/** Whether `rule` lets one more take into `counter`'s window at `now`. */
export function allows(counter: CounterState, rule: TakeRule, now: number): boolean {
  return counter.count < rule.limit || refusedUntil(counter, rule) <= now;
}
