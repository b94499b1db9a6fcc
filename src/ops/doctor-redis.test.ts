import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { testRedisPrefix, testRedisUrl } from '../test-support/redis.js';
import { runDoctor } from './doctor.js';
import { checkRedis } from './doctor-redis.js';

/** A port nothing listens on: taken from the system, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}

describe('doctor: Redis', () => {
  it('reports the Redis in REDIS_URL as answering, and names it', async () => {
    const keys = testRedisPrefix('doctor');
    const url = new URL(testRedisUrl);
    const [result] = await checkRedis(loadConfig({ REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: keys.prefix }));
    expect(result).toMatchObject({ level: 'OK', check: 'redis' });
    expect(result?.message).toContain(`${url.hostname}:${url.port || 6379}`);
    await keys.flush();
  });

  it('fails, saying what it means for the store, when the Redis in REDIS_URL cannot be reached', async () => {
    const port = await closedPort();
    const started = Date.now();
    const [result] = await checkRedis(loadConfig({ REDIS_URL: `redis://:secret-pass@127.0.0.1:${port}` }));
    expect(result).toMatchObject({ level: 'FAIL', check: 'redis' });
    expect(result?.message).toContain(`redis://127.0.0.1:${port} cannot be reached (ECONNREFUSED)`);
    expect(result?.message).toContain('Fix: start Redis or correct REDIS_URL');
    expect(result?.message).not.toContain('secret-pass');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('is part of the report: a line for Redis whether REDIS_URL is set or not', async () => {
    const port = await closedPort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'store-doctor-redis-'));
    const withRedis = await runDoctor(
      { DATA_DIR: dataDir, REDIS_URL: `redis://127.0.0.1:${port}` },
      { uid: null },
    );
    expect(withRedis.find((r) => r.check === 'redis')).toMatchObject({ level: 'FAIL' });
    const without = await runDoctor({ DATA_DIR: dataDir }, { uid: null });
    rmSync(dataDir, { recursive: true, force: true });
    expect(without.find((r) => r.check === 'redis')).toMatchObject({
      level: 'OK',
      message: expect.stringContaining('REDIS_URL not set'),
    });
  });
});
