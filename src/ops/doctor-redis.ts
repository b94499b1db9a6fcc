import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { RedisCounterStore } from '../modules/limits/redis-counter-store.js';
import { type CheckResult, fail, ok } from './doctor-settings.js';

/** The server as the report names it: host, port and database, never the password in the URL. */
function describe(url: string): string {
  try {
    const u = new URL(url);
    const db = u.pathname.replace(/^\//, '');
    return `${u.protocol}//${u.hostname}:${u.port || 6379}${db ? `/${db}` : ''}`;
  } catch {
    return 'the server in REDIS_URL';
  }
}

/**
 * With REDIS_URL: the server answers and runs the counters' scripts (a probe counter under the store's key
 * prefix, deleted at once). A store that cannot reach it does not start, and one that loses it refuses
 * sign-ins until it is back, so a failure here is a FAIL. Without it, says where the limits count instead.
 */
export async function checkRedis(config: Pick<Config, 'redis' | 'database'>): Promise<CheckResult[]> {
  if (!config.redis)
    return [
      ok(
        'redis',
        `REDIS_URL not set: the sign-in throttle and the per-address limits count in ${config.database.kind === 'postgres' ? 'the PostgreSQL database' : "the store process's memory"}`,
      ),
    ];
  const where = describe(config.redis.url);
  let store: RedisCounterStore | null = null;
  try {
    store = await RedisCounterStore.connect(config.redis);
    const probe = `doctor-probe:${randomBytes(6).toString('hex')}`;
    await store.take(probe, { limit: 1, windowMs: 10_000 }, Date.now());
    await store.remove(probe);
    return [ok('redis', `${where} answers: the sign-in throttle and the per-address limits count there`)];
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
    return [
      fail(
        'redis',
        `${where} cannot be reached (${reason}): the store will not start, and a running one refuses sign-ins. Fix: start Redis or correct REDIS_URL.`,
      ),
    ];
  } finally {
    await store?.close();
  }
}
