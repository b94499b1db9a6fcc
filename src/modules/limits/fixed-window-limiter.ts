import type { CounterStore, TakeResult } from './counter-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';

/** A shared counter store under a name of its own, and whom to tell when it fails. */
export type SharedCounters = {
  store: CounterStore;
  /** Keeps this limit's keys apart from the others' in the store ("vitals", "checkout"). */
  name: string;
  onError?: (error: unknown) => void;
};

const ERROR_REPORT_INTERVAL_MS = 60_000;

/**
 * At most `limit` hits per key (client IP) per `windowMs`, in fixed windows: public endpoints use it so a
 * noisy or hostile client cannot flood the tables or the payment provider. The counts live in a shared store
 * when the store runs as several processes (decision 0017), in this limiter's memory otherwise.
 *
 * When the shared store fails, the limiter counts in its own memory until it is back: each process then
 * limits on its own (the limit times the number of processes), which a report beacon or a checkout can live
 * with, unlike refusing every shopper while Redis restarts. The failure is reported at most once a minute.
 */
export class FixedWindowLimiter {
  private readonly local = new MemoryCounterStore();
  private lastReport = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly opts: {
      limit: number;
      windowMs: number;
      now?: () => number;
      shared?: SharedCounters;
    },
  ) {}

  /** Counts a hit for `key`; when the key is over its limit in this window, the seconds until it ends (Retry-After). */
  async admit(key: string): Promise<{ taken: true } | { taken: false; retryAfterSeconds: number }> {
    const now = this.opts.now?.() ?? Date.now();
    const result = await this.count(key, now);
    if (result.taken) return { taken: true };
    return { taken: false, retryAfterSeconds: Math.max(1, Math.ceil((result.counter.resetAt - now) / 1000)) };
  }

  /**
   * Whether `key` has used up this window without counting a hit: for limits on failures (wrong discount
   * codes), checked before the attempt and counted only when it fails. The seconds until the window ends.
   */
  async exhausted(key: string): Promise<{ over: false } | { over: true; retryAfterSeconds: number }> {
    const now = this.opts.now?.() ?? Date.now();
    const counter = await this.peek(key, now);
    if (!counter || counter.count < this.opts.limit) return { over: false };
    return { over: true, retryAfterSeconds: Math.max(1, Math.ceil((counter.resetAt - now) / 1000)) };
  }

  private async peek(key: string, now: number) {
    const shared = this.opts.shared;
    if (!shared) return this.local.peek(key, now);
    try {
      return await shared.store.peek(`${shared.name}:${key}`, now);
    } catch (error) {
      if (now - this.lastReport >= ERROR_REPORT_INTERVAL_MS) {
        this.lastReport = now;
        shared.onError?.(error);
      }
      return this.local.peek(key, now);
    }
  }

  private async count(key: string, now: number): Promise<TakeResult> {
    const rule = { limit: this.opts.limit, windowMs: this.opts.windowMs };
    const shared = this.opts.shared;
    if (!shared) return this.local.take(key, rule, now);
    try {
      return await shared.store.take(`${shared.name}:${key}`, rule, now);
    } catch (error) {
      if (now - this.lastReport >= ERROR_REPORT_INTERVAL_MS) {
        this.lastReport = now;
        shared.onError?.(error);
      }
      return this.local.take(key, rule, now);
    }
  }
}
