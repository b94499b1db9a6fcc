import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { testRedisUrl } from '../../test-support/redis.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { DatabaseCounterStore } from './database-counter-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';
import { openCounterStore } from './open-counter-store.js';
import { RedisCounterStore } from './redis-counter-store.js';

const SECRET = 'x'.repeat(32);

describe('where the limits count, by configuration', () => {
  let store: TestStore;
  afterEach(async () => {
    await store?.cleanup();
  });

  it('Redis with REDIS_URL, the database with DATABASE_URL, this process’s memory on SQLite', async () => {
    store = await createTestStore();
    const db = store.handle.db;
    const open = (env: Record<string, string>) => openCounterStore({ config: loadConfig(env), db });

    expect(await open({})).toBeInstanceOf(MemoryCounterStore);
    const postgres = { DATABASE_URL: 'postgres://127.0.0.1/shop', SESSION_SECRET: SECRET };
    expect(await open(postgres)).toBeInstanceOf(DatabaseCounterStore);
    const redis = await open({ ...postgres, REDIS_URL: testRedisUrl });
    expect(redis).toBeInstanceOf(RedisCounterStore);
    await redis.close();
  });

  it('fails at start when the Redis server cannot be reached', async () => {
    store = await createTestStore();
    const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:1' });
    await expect(openCounterStore({ config, db: store.handle.db })).rejects.toThrow(/ECONNREFUSED/);
  });
});
