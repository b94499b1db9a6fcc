import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, expect, it } from 'vitest';
import { openTestRedisStore, testRedisPrefix, testRedisUrl } from '../../test-support/redis.js';
import { buildTestApp, createAdmin, createTestStore, type TestStore } from '../../test-support/test-store.js';
import { RedisCounterStore } from './redis-counter-store.js';

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

/**
 * A TCP proxy in front of the test Redis that the test can take away (open connections cut, new ones closed
 * at once, as a Redis that restarts looks to its clients) and bring back. Counts the attempts it refused.
 */
async function redisProxy(): Promise<{
  url: string;
  away(): void;
  back(): void;
  refused(): number;
  close(): Promise<void>;
}> {
  const target = new URL(testRedisUrl);
  const sockets = new Set<Socket>();
  let up = true;
  let refused = 0;
  const server: Server = createServer((client) => {
    if (!up) {
      refused += 1;
      client.destroy();
      return;
    }
    const upstream = tcpConnect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    away() {
      up = false;
      for (const s of sockets) s.destroy();
    },
    back() {
      up = true;
    },
    refused: () => refused,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

it('logs a Redis outage once as it starts and once as it ends, with how long it lasted, however many retries', async () => {
  const proxy = await redisProxy();
  const lines: Array<{ level: string; msg: string; obj: object }> = [];
  const log = {
    warn: (obj: object, msg: string) => void lines.push({ level: 'warn', msg, obj }),
    info: (obj: object, msg: string) => void lines.push({ level: 'info', msg, obj }),
  };
  let clock = 1_000;
  const counters = await RedisCounterStore.connect({
    url: proxy.url,
    keyPrefix: redisKeys.prefix,
    log,
    now: () => clock,
  });
  try {
    expect(counters.available()).toBe(true);
    proxy.away();
    await until(() => !counters.available(), 'the store to see Redis gone');
    // Several reconnection attempts fail (each one an 'error' event from ioredis).
    await until(() => proxy.refused() >= 4, 'four failed reconnection attempts');
    clock = 5_250;
    proxy.back();
    await until(() => counters.available(), 'the store to reconnect');
    await until(() => lines.length >= 2, 'the line that says Redis is back');
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info']);
    expect(lines[0]?.obj).toMatchObject({ event: 'limits.redis-down' });
    expect(lines[0]?.obj).not.toHaveProperty('err');
    expect(lines[1]).toMatchObject({
      msg: 'Redis is back after 4250 ms',
      obj: { event: 'limits.redis-back', downMs: 4250 },
    });
    // It counts again once back.
    expect((await counters.take('outage-probe', { limit: 5, windowMs: 60_000 }, Date.now())).taken).toBe(
      true,
    );
  } finally {
    await counters.close();
    await proxy.close();
  }
  // Closing the store is not an outage.
  expect(lines).toHaveLength(2);
});
