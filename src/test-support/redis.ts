import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisCounterStore } from '../modules/limits/redis-counter-store.js';

/** The Redis the tests use: 127.0.0.1:6379 on our machines and in CI, or TEST_REDIS_URL's. */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A key prefix of its own for one test file, so files running in parallel never see each other's counters,
 * and a cleanup that deletes only the keys under it (never FLUSHDB: the server may be shared).
 */
export function testRedisPrefix(name: string): { prefix: string; flush(): Promise<void> } {
  const prefix = `storefront-test:${name}:${randomBytes(6).toString('hex')}:`;
  return {
    prefix,
    async flush() {
      const redis = new Redis(testRedisUrl, { lazyConnect: true });
      await redis.connect();
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
          cursor = next;
          if (keys.length > 0) await redis.del(...keys);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}

/** A store on the test Redis under `prefix`: one per simulated process, each with its own connection. */
export function openTestRedisStore(prefix: string): Promise<RedisCounterStore> {
  return RedisCounterStore.connect({ url: testRedisUrl, keyPrefix: prefix });
}
