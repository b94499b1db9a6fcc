import { Redis } from 'ioredis';
import type { CounterState, CounterStore, TakeResult, TakeRule } from './counter-store.js';
import { announceScript, integers, refundScript, takeScript } from './redis-scripts.js';

export type RedisCounterOptions = {
  url: string;
  /** Put before every key, so several stores (or test files) can share one Redis. */
  keyPrefix: string;
  /** Connection trouble, as it happens (ioredis reports it as events besides the failing commands). */
  onError?: (error: Error) => void;
};

/**
 * Counters in Redis (REDIS_URL), shared by every process that uses the same server and key prefix. Each step
 * is one Lua script, atomic in Redis; a counter's key expires with its window, so nothing needs pruning.
 * Commands fail fast while Redis is away (no offline queue, one retry, a short timeout): the callers decide
 * what a failure means (decision 0017), a request must not hang waiting for Redis.
 */
export class RedisCounterStore implements CounterStore {
  private constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Connects first, so a wrong URL or an unreachable server is found at start, not at the first sign-in. */
  static async connect(opts: RedisCounterOptions): Promise<RedisCounterStore> {
    const redis = new Redis(opts.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      commandTimeout: 1_000,
      // Keep trying in the background while Redis is away, at most every 2 s.
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    // connect() itself only says "Connection is closed."; the reason (refused, DNS, auth) comes as an event.
    const seen: { error?: Error } = {};
    redis.on('error', (error: Error) => {
      seen.error = error;
      opts.onError?.(error);
    });
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect();
      throw seen.error ?? error;
    }
    return new RedisCounterStore(redis, opts.keyPrefix);
  }

  async take(key: string, rule: TakeRule, now: number): Promise<TakeResult> {
    const reply = await takeScript.run(this.redis, this.prefix + key, [
      now,
      rule.windowMs,
      rule.limit,
      rule.backoffMs ?? 0,
    ]);
    const [taken = 0, count = 0, resetAt = 0, lastAt = 0] = integers(reply, 4);
    return { taken: taken === 1, counter: { count, resetAt, lastAt } };
  }

  async peek(key: string, now: number): Promise<CounterState | null> {
    const [c, r, l] = await this.redis.hmget(this.prefix + key, 'c', 'r', 'l');
    if (c == null || r == null || l == null || Number(r) <= now) return null;
    return { count: Number(c), resetAt: Number(r), lastAt: Number(l) };
  }

  async refund(key: string, resetAt: number): Promise<void> {
    await refundScript.run(this.redis, this.prefix + key, [resetAt]);
  }

  async remove(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async announce(key: string, limit: number, now: number): Promise<boolean> {
    return (await announceScript.run(this.redis, this.prefix + key, [limit, now])) === 1;
  }

  /** Keys expire with their windows. */
  async prune(): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
