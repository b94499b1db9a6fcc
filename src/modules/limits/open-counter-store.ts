import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { CounterStore } from './counter-store.js';
import { DatabaseCounterStore } from './database-counter-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';
import { RedisCounterStore, type RedisOutageLog } from './redis-counter-store.js';

/**
 * Where this process keeps the limits' counters: Redis when REDIS_URL is set; the database when it is
 * PostgreSQL (DATABASE_URL), which every process shares; memory on SQLite, where the data folder's lock
 * allows one process only, so sharing would buy nothing and cost a write per sign-in and report
 * (decision 0017).
 */
export async function openCounterStore(opts: {
  config: Pick<Config, 'redis' | 'database'>;
  db: Db;
  /** Where a Redis outage is told, once as it starts and once as it ends. */
  redisLog?: RedisOutageLog;
}): Promise<CounterStore> {
  const { redis, database } = opts.config;
  if (redis) return RedisCounterStore.connect({ ...redis, log: opts.redisLog });
  if (database.kind === 'postgres') return new DatabaseCounterStore(opts.db);
  return new MemoryCounterStore();
}
