import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, expect, it } from 'vitest';
import { openTestRedisStore, testRedisPrefix } from '../../test-support/redis.js';
import { buildTestApp, createAdmin, createTestStore, type TestStore } from '../../test-support/test-store.js';

const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';
const redisKeys = testRedisPrefix('counter-outage');
afterAll(() => redisKeys.flush());

let store: TestStore;
let app: FastifyInstance;
afterEach(async () => {
  await app?.close();
  await store?.cleanup();
});

/** An app whose Redis connection is gone (closed, as a Redis that went away looks to the client). */
async function appWithRedisAway(logLines: string[]): Promise<FastifyInstance> {
  store = await createTestStore();
  await createAdmin(store, EMAIL, PASSWORD);
  const counters = await openTestRedisStore(redisKeys.prefix);
  await counters.close();
  return buildTestApp(store, { counters, logLines });
}

it('refuses sign-ins with 503 while Redis is away, even with the right password, and says so in the log', async () => {
  const logLines: string[] = [];
  app = await appWithRedisAway(logLines);
  const res = await app.inject({
    method: 'POST',
    url: '/api/trpc/auth.login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  expect(res.statusCode).toBe(503);
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(res.body).toContain('Sign-in is unavailable for a moment');
  expect(logLines.join('\n')).toContain('admin.login.throttle-unavailable');
});

it('keeps taking web vitals while Redis is away, limited by this process alone, and logs the outage once', async () => {
  const logLines: string[] = [];
  app = await appWithRedisAway(logLines);
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/vitals',
      headers: { 'content-type': 'application/json' },
      payload: { path: '/', metrics: [{ name: 'LCP', value: 1200 }] },
      remoteAddress: '198.51.100.40',
    });
    statuses.push(res.statusCode);
  }
  expect(statuses.slice(0, 30).every((s) => s === 204)).toBe(true);
  expect(statuses[30]).toBe(429);
  expect(logLines.filter((l) => l.includes('limits.store-unavailable'))).toHaveLength(1);
});
