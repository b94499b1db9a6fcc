import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openTestRedisStore, testRedisPrefix, testRedisUrl } from '../../test-support/redis.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import type { CounterStore } from './counter-store.js';
import { DatabaseCounterStore } from './database-counter-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const WINDOW = 60_000;
const redisKeys = testRedisPrefix('counter-store');

type Opened = { store: CounterStore; close(): Promise<void> };

/** Each store on a real engine: the database one on the suite's engine (TEST_DATABASE), Redis on 6379. */
const stores: Record<'memory' | 'database' | 'redis', () => Promise<Opened>> = {
  memory: async () => {
    const store = new MemoryCounterStore();
    return { store, close: () => store.close() };
  },
  database: async () => {
    const test: TestStore = await createTestStore();
    return { store: new DatabaseCounterStore(test.handle.db), close: () => test.cleanup() };
  },
  redis: async () => {
    const store = await openTestRedisStore(redisKeys.prefix);
    return { store, close: () => store.close() };
  },
};

afterAll(() => redisKeys.flush());

describe.each(Object.keys(stores) as Array<keyof typeof stores>)('%s counter store', (kind) => {
  let opened: Opened;
  let n = 0;
  /** A key of its own per test: the Redis store's counters outlive one test. */
  const key = () => `test:${kind}:${++n}:${Date.now()}`;
  const open = async () => {
    opened = await stores[kind]();
    return opened.store;
  };
  afterEach(async () => {
    await opened?.close();
  });

  it('counts takes in a window up to the limit, refuses the next with the window’s end, and starts anew at that end', async () => {
    const store = await open();
    const k = key();
    const rule = { limit: 3, windowMs: WINDOW };
    for (let i = 1; i <= 3; i++) {
      const r = await store.take(k, rule, T0 + i);
      expect(r).toEqual({ taken: true, counter: { count: i, resetAt: T0 + 1 + WINDOW, lastAt: T0 + i } });
    }
    const refused = await store.take(k, rule, T0 + 10);
    expect(refused).toEqual({
      taken: false,
      counter: { count: 3, resetAt: T0 + 1 + WINDOW, lastAt: T0 + 3 },
    });
    const next = await store.take(k, rule, T0 + 1 + WINDOW);
    expect(next).toEqual({
      taken: true,
      counter: { count: 1, resetAt: T0 + 1 + 2 * WINDOW, lastAt: T0 + 1 + WINDOW },
    });
  });

  it('forgets a counter when its window ends', async () => {
    const store = await open();
    const k = key();
    await store.take(k, { limit: 5, windowMs: WINDOW }, T0);
    await store.take(k, { limit: 5, windowMs: WINDOW }, T0 + 100);
    expect(await store.peek(k, T0 + WINDOW - 1)).toEqual({
      count: 2,
      resetAt: T0 + WINDOW,
      lastAt: T0 + 100,
    });
    expect(await store.peek(k, T0 + WINDOW)).toBeNull();
  });

  it('loses no count when 50 takes arrive at once, and lets exactly the limit through', async () => {
    const store = await open();
    const counted = key();
    const all = await Promise.all(
      Array.from({ length: 50 }, () => store.take(counted, { limit: 1000, windowMs: WINDOW }, T0)),
    );
    expect(all.every((r) => r.taken)).toBe(true);
    expect(all.map((r) => r.counter.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    expect((await store.peek(counted, T0))?.count).toBe(50);

    const limited = key();
    const raced = await Promise.all(
      Array.from({ length: 50 }, () => store.take(limited, { limit: 10, windowMs: WINDOW }, T0)),
    );
    expect(raced.filter((r) => r.taken)).toHaveLength(10);
    expect((await store.peek(limited, T0))?.count).toBe(10);
  });

  it('past the limit with a backoff, lets one take through after a wait that doubles each time', async () => {
    const store = await open();
    const k = key();
    const rule = { limit: 2, windowMs: 3_600_000, backoffMs: 1_000 };
    await store.take(k, rule, T0);
    await store.take(k, rule, T0);
    expect((await store.take(k, rule, T0 + 999)).taken).toBe(false);
    expect((await store.take(k, rule, T0 + 1_000)).taken).toBe(true);
    expect((await store.take(k, rule, T0 + 2_999)).taken).toBe(false);
    const third = await store.take(k, rule, T0 + 3_000);
    expect(third).toEqual({
      taken: true,
      counter: { count: 4, resetAt: T0 + 3_600_000, lastAt: T0 + 3_000 },
    });
  });

  it('gives a take back only within the window it was counted in, and forgets a removed counter', async () => {
    const store = await open();
    const k = key();
    const rule = { limit: 5, windowMs: WINDOW };
    const first = await store.take(k, rule, T0);
    await store.take(k, rule, T0);
    await store.refund(k, first.counter.resetAt);
    expect((await store.peek(k, T0))?.count).toBe(1);
    await store.refund(k, first.counter.resetAt - 1);
    expect((await store.peek(k, T0))?.count).toBe(1);
    await store.remove(k);
    expect(await store.peek(k, T0)).toBeNull();
    // A refund after the window moved on leaves the new window alone.
    await store.take(k, rule, T0 + WINDOW);
    await store.refund(k, first.counter.resetAt);
    expect((await store.peek(k, T0 + WINDOW))?.count).toBe(1);
  });

  it('announces going over the limit once per window, to one of many callers', async () => {
    const store = await open();
    const k = key();
    const rule = { limit: 3, windowMs: WINDOW };
    for (let i = 0; i < 2; i++) await store.take(k, rule, T0);
    expect(await store.announce(k, 3, T0)).toBe(false);
    await store.take(k, rule, T0);
    const answers = await Promise.all(Array.from({ length: 10 }, () => store.announce(k, 3, T0)));
    expect(answers.filter(Boolean)).toHaveLength(1);
    await store.take(k, rule, T0 + WINDOW);
    for (let i = 0; i < 2; i++) await store.take(k, rule, T0 + WINDOW);
    expect(await store.announce(k, 3, T0 + WINDOW)).toBe(true);
  });
});

describe('where counters end', () => {
  it('the database deletes the rows of ended windows and keeps the others', async () => {
    const test = await createTestStore();
    try {
      const store = new DatabaseCounterStore(test.handle.db);
      await store.take('old', { limit: 5, windowMs: 1_000 }, T0);
      await store.take('live', { limit: 5, windowMs: WINDOW }, T0);
      expect(await store.prune(T0 + 1_000)).toBe(1);
      const keys = await test.handle.db.selectFrom('rate_counters').select('key').execute();
      expect(keys.map((r) => r.key)).toEqual(['live']);
    } finally {
      await test.cleanup();
    }
  });

  it('Redis expires a counter’s key with its window', async () => {
    const store = await openTestRedisStore(redisKeys.prefix);
    const raw = new Redis(testRedisUrl);
    try {
      await store.take('short', { limit: 5, windowMs: 200 }, Date.now());
      const ttl = await raw.pttl(`${redisKeys.prefix}short`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await raw.exists(`${redisKeys.prefix}short`)).toBe(0);
    } finally {
      raw.disconnect();
      await store.close();
    }
  });
});
