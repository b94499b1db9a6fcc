import { Redis } from 'ioredis';
import type { CounterState, CounterStore, TakeResult, TakeRule } from './counter-store.js';
import { announceScript, integers, refundScript, takeScript } from './redis-scripts.js';

/** Where an outage is told: once when the connection is lost, once when it is back. */
export type RedisOutageLog = {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
};

export type RedisCounterOptions = {
  url: string;
  /** Put before every key, so several stores (or test files) can share one Redis. */
  keyPrefix: string;
  /** Told when the connection is lost and when it is back, with how long it lasted. */
  log?: RedisOutageLog;
  /** Milliseconds for the outage's length; the system's by default, a test's own. */
  now?: () => number;
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
    private readonly outages: { closing: boolean },
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
    const remember = (error: Error) => {
      seen.error = error;
    };
    redis.on('error', remember);
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect();
      throw seen.error ?? error;
    }
    redis.off('error', remember);
    return new RedisCounterStore(redis, opts.keyPrefix, watchOutages(redis, opts));
  }

  /** Whether commands can be sent now (connected and ready); false while Redis is away. */
  available(): boolean {
    return this.redis.status === 'ready';
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
    this.outages.closing = true;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Logs an outage once when it starts and once when it ends, with how long it lasted. ioredis emits an error
 * for every reconnection attempt (up to every 2 s) while Redis is away: logged each, with a stack, they
 * buried everything else in the log.
 */
function watchOutages(redis: Redis, opts: RedisCounterOptions): { closing: boolean } {
  const state = { closing: false };
  const now = opts.now ?? Date.now;
  let downSince: number | null = null;
  const down = (reason: string) => {
    if (downSince !== null || state.closing) return;
    downSince = now();
    opts.log?.warn(
      { event: 'limits.redis-down', reason },
      `Redis is unreachable (${reason}): sign-in answers 503 and the limits count per process until it is back`,
    );
  };
  // Without a listener an 'error' event would throw; the outage is logged by the lines above and below.
  redis.on('error', (error: Error & { code?: string }) => down(error.code ?? error.message));
  redis.on('close', () => down('connection closed'));
  redis.on('ready', () => {
    if (downSince === null) return;
    const downMs = Math.max(0, now() - downSince);
    downSince = null;
    opts.log?.info({ event: 'limits.redis-back', downMs }, `Redis is back after ${downMs} ms`);
  });
  return state;
}
