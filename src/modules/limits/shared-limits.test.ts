import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { insertProducts } from '../../test-support/fixtures.js';
import { openTestRedisStore, testRedisPrefix } from '../../test-support/redis.js';
import { buildTestApp, createAdmin, createTestStore, type TestStore } from '../../test-support/test-store.js';
import type { CounterStore } from './counter-store.js';
import { DatabaseCounterStore } from './database-counter-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';
import { createRequestLimits } from './request-limits.js';

const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';
const GUESS = 'attacker-guess-0042';
const ORIGIN = 'https://shop.example';
const redisKeys = testRedisPrefix('shared-limits');
afterAll(() => redisKeys.flush());

/**
 * Two app instances stand for two store processes behind a load balancer: one database, and each with a
 * counter store of its own (its own Redis connection, or its own handle on the shared table), as two
 * processes would have. Whatever one counts, the other must see.
 */
const sharedStores: Record<'database' | 'redis', (store: TestStore) => Promise<CounterStore>> = {
  database: async (store) => new DatabaseCounterStore(store.handle.db),
  redis: () => openTestRedisStore(redisKeys.prefix),
};

type Processes = { a: FastifyInstance; b: FastifyInstance; store: TestStore };

async function twoProcesses(
  counters: (store: TestStore) => Promise<CounterStore>,
  opts: { checkoutsPerIp?: number; env?: Record<string, string> } = {},
): Promise<Processes> {
  const store = await createTestStore({ env: { PUBLIC_URL: ORIGIN, ...opts.env } });
  await createAdmin(store, EMAIL, PASSWORD);
  const build = async () => {
    const own = await counters(store);
    const app = await buildTestApp(store, {
      counters: own,
      limits: createRequestLimits({
        queryMsPerSecond: 0,
        checkoutsPerIp: opts.checkoutsPerIp,
        counters: own,
      }),
    });
    app.addHook('onClose', () => own.close());
    return app;
  };
  return { a: await build(), b: await build(), store };
}

const login = (app: FastifyInstance, ip: string, password = GUESS, cookie?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/trpc/auth.login',
    headers: { 'content-type': 'application/json', origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify({ email: EMAIL, password }),
    remoteAddress: ip,
  });

function deviceCookieFrom(res: LightMyRequestResponse): string {
  const header = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('store_device='));
  if (!header) throw new Error('no device cookie was set');
  return header.split(';')[0] ?? '';
}

describe.each(Object.keys(sharedStores) as Array<keyof typeof sharedStores>)(
  'limits shared by two processes (counters in %s)',
  (kind) => {
    let p: Processes;
    afterEach(async () => {
      await p?.a.close();
      await p?.b.close();
      await p?.store.cleanup();
      // Redis outlives the test's database: the next test starts from no counts, as its database does.
      if (kind === 'redis') await redisKeys.flush();
    });

    it('a brute force spread over both processes is stopped at the same count as on one, and the owner’s known device still gets in', async () => {
      p = await twoProcesses(sharedStores[kind]);
      const owner = await login(p.a, '203.0.113.10', PASSWORD);
      expect(owner.statusCode).toBe(200);
      const device = deviceCookieFrom(owner);

      for (let i = 0; i < 10; i++) {
        const res = await login(i % 2 === 0 ? p.a : p.b, `192.0.2.${i}`);
        expect(res.statusCode).toBe(401);
      }
      for (const app of [p.a, p.b]) {
        const refused = await login(app, '198.51.100.77', PASSWORD);
        expect(refused.statusCode).toBe(429);
        expect(refused.headers['retry-after']).toBe('30');
      }
      expect((await login(p.b, '203.0.113.99', PASSWORD, device)).statusCode).toBe(200);
    });

    it('a parallel burst split over both processes gets 10 password checks in all', async () => {
      p = await twoProcesses(sharedStores[kind]);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => login(i % 2 === 0 ? p.a : p.b, `192.0.2.${i}`)),
      );
      const codes = answers.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 401)).toHaveLength(10);
      expect(codes.filter((c) => c === 429)).toHaveLength(20);
    });

    it('an address’s attempts at any accounts are counted over both processes', async () => {
      // Unknown emails cost a full password check each: a lower limit keeps the test short.
      p = await twoProcesses(sharedStores[kind], { env: { LOGIN_MAX_ATTEMPTS_PER_IP: '6' } });
      for (let i = 0; i < 6; i++) {
        const res = await p[i % 2 === 0 ? 'a' : 'b'].inject({
          method: 'POST',
          url: '/api/trpc/auth.login',
          headers: { 'content-type': 'application/json', origin: ORIGIN },
          payload: JSON.stringify({ email: `guess${i}@shop.example`, password: GUESS }),
          remoteAddress: '192.0.2.50',
        });
        expect(res.statusCode).toBe(401);
      }
      expect((await login(p.a, '192.0.2.50', PASSWORD)).statusCode).toBe(429);
      expect((await login(p.b, '192.0.2.50', PASSWORD)).statusCode).toBe(429);
      expect((await login(p.b, '192.0.2.51', PASSWORD)).statusCode).toBe(200);
      // Six full-cost checks (and the dummy hash itself, the first time): scrypt, 128 MiB, 3 to 5 s each on a
      // busy 2-core machine, past the default 20 s, so the bound is the work's.
    }, 120_000);

    it('web vitals, error reports and checkouts are limited per address over both processes', async () => {
      p = await twoProcesses(sharedStores[kind], { checkoutsPerIp: 3 });
      await insertProducts(p.store.handle.db, [{ id: 'p1', sizes: '["M"]' }]);
      const ip = '198.51.100.30';
      const vitals = (app: FastifyInstance) =>
        app.inject({
          method: 'POST',
          url: '/api/vitals',
          headers: { 'content-type': 'application/json' },
          payload: { path: '/', metrics: [{ name: 'LCP', value: 1200 }] },
          remoteAddress: ip,
        });
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) statuses.push((await vitals(i % 2 === 0 ? p.a : p.b)).statusCode);
      expect(statuses.filter((s) => s === 429)).toEqual([429]);
      expect(statuses.at(-1)).toBe(429);

      const report = (app: FastifyInstance) =>
        app.inject({
          method: 'POST',
          url: '/api/trpc/telemetry.reportError',
          headers: { 'content-type': 'application/json', origin: ORIGIN },
          payload: { kind: 'error', message: 'boom', route: '/', userAgent: 'test' },
          remoteAddress: ip,
        });
      for (let i = 0; i < 20; i++) expect((await report(i % 2 === 0 ? p.a : p.b)).statusCode).toBe(200);
      expect((await report(p.a)).statusCode).toBe(429);

      const checkout = (app: FastifyInstance) =>
        app.inject({
          method: 'POST',
          url: '/api/trpc/checkout.createSession',
          headers: { 'content-type': 'application/json', origin: ORIGIN },
          payload: { lines: [{ productId: 'p1', size: 'M', quantity: 1 }] },
          remoteAddress: ip,
        });
      for (const app of [p.a, p.b, p.a]) expect((await checkout(app)).statusCode).toBe(200);
      expect((await checkout(p.b)).statusCode).toBe(429);
    });

    it('wrong discount codes are counted per address over both processes: 10, then a wait', async () => {
      p = await twoProcesses(sharedStores[kind]);
      await insertProducts(p.store.handle.db, [{ id: 'p1', sizes: '["M"]' }]);
      const quote = (app: FastifyInstance, code: string, ip = '198.51.100.40') =>
        app.inject({
          method: 'GET',
          url: `/api/trpc/checkout.quote?input=${encodeURIComponent(
            JSON.stringify({ lines: [{ productId: 'p1', size: 'M', quantity: 1 }], code }),
          )}`,
          headers: { origin: ORIGIN },
          remoteAddress: ip,
        });
      for (let i = 0; i < 10; i++) {
        const res = await quote(i % 2 === 0 ? p.a : p.b, `GUESS${i}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().result.data.codeRefusal.reason).toBe('not_found');
      }
      for (const app of [p.a, p.b]) {
        const refused = await quote(app, 'GUESS10');
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect((await quote(p.b, 'GUESS11', '198.51.100.41')).statusCode).toBe(200);
    });
  },
);

describe('why the counters are shared', () => {
  let p: Processes;
  afterEach(async () => {
    await p?.a.close();
    await p?.b.close();
    await p?.store.cleanup();
  });

  it('with each process counting alone, the same spread attack gets twice the guesses', async () => {
    p = await twoProcesses(async () => new MemoryCounterStore());
    const codes: number[] = [];
    for (let i = 0; i < 20; i++)
      codes.push((await login(i % 2 === 0 ? p.a : p.b, `192.0.2.${i}`)).statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(20);
  });
});
