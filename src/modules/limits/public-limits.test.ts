import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { insertProducts } from '../../test-support/fixtures.js';
import { buildTestApp, createTestStore, type TestStore } from '../../test-support/test-store.js';
import { FixedWindowLimiter } from './fixed-window-limiter.js';
import { DEFAULT_GATE_LIMITS, PublicCallGate } from './public-call-gate.js';
import { createRequestLimits, type RequestLimits } from './request-limits.js';

const SHOPPER = '198.51.100.20';
const NEIGHBOUR = '198.51.100.21';

/** A GET batch of uncached searches, each with its own words so no answer cache can serve it. */
function searchBatch(words: string[]): string {
  const names = words.map(() => 'catalogue.search').join(',');
  const input: Record<number, unknown> = {};
  words.forEach((q, i) => {
    input[i] = { q, limit: 24 };
  });
  return `/api/trpc/${names}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
}

describe('limits on what shoppers may ask', () => {
  let store: TestStore;
  let app: FastifyInstance;

  const start = async (limits: RequestLimits, productCount = 30) => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    const rows = Array.from({ length: productCount }, (_, i) => ({
      id: `p${i}`,
      title: `Lawn Kurta ${i} embroidered silk`,
      price_minor: 1000 + i,
      sizes: '["S","M","L"]',
    }));
    for (let i = 0; i < rows.length; i += 100) await insertProducts(store.handle.db, rows.slice(i, i + 100));
    app = await buildTestApp(store, { limits });
  };
  afterEach(async () => {
    await app?.close();
    await store?.cleanup();
  });

  it('an address over its query budget gets 429 with Retry-After; its neighbour is still served', async () => {
    await start({
      ...createRequestLimits({ unlimited: true }),
      publicQueries: new PublicCallGate({ ...DEFAULT_GATE_LIMITS, burstMs: 1, refillMsPerSecond: 1 }),
    });
    const res = await app.inject({ url: searchBatch(['lawn', 'silk', 'kurta']), remoteAddress: SHOPPER });
    const answers = res.json() as Array<{
      result?: unknown;
      error?: { json?: { data?: { httpStatus?: number } } };
    }>;
    expect(answers[0]?.result).toBeDefined();
    expect(
      answers
        .slice(1)
        .map(
          (a) =>
            a.error?.json?.data?.httpStatus ??
            (a.error as { data?: { httpStatus?: number } })?.data?.httpStatus,
        ),
    ).toEqual([429, 429]);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);

    const single = await app.inject({ url: searchBatch(['embroidered']), remoteAddress: SHOPPER });
    expect(single.statusCode).toBe(429);
    expect(JSON.stringify(single.json())).toContain('Too many requests from your address');

    const neighbour = await app.inject({ url: searchBatch(['embroidered']), remoteAddress: NEIGHBOUR });
    expect(neighbour.statusCode).toBe(200);
  });

  it('a batch larger than ten calls is refused whole', async () => {
    await start(createRequestLimits({ unlimited: true }));
    const words = Array.from({ length: 11 }, (_, i) => `w${i}`);
    const res = await app.inject({ url: searchBatch(words), remoteAddress: SHOPPER });
    expect(res.statusCode).toBe(400);
    const ten = await app.inject({ url: searchBatch(words.slice(0, 10)), remoteAddress: SHOPPER });
    expect(ten.statusCode).toBe(200);
  });

  it('a flood of uncached queries does not hold up the health check', async () => {
    await start(createRequestLimits({ unlimited: true }), 3_000);
    const finished: string[] = [];
    const flood = Array.from({ length: 8 }, (_, b) =>
      app
        .inject({
          url: searchBatch(Array.from({ length: 10 }, (_, i) => `kurta ${b * 10 + i}`)),
          remoteAddress: SHOPPER,
        })
        .then((r) => {
          expect(r.statusCode).toBe(200);
          finished.push(`batch ${b}`);
        }),
    );
    // The health check arrives after the flood, as a load balancer's probe would.
    await new Promise((resolve) => setImmediate(resolve));
    const health = app.inject({ url: '/healthz' }).then((r) => {
      expect(r.statusCode).toBe(200);
      finished.push('healthz');
    });
    await Promise.all([...flood, health]);
    expect(finished.indexOf('healthz'), `answered in this order: ${finished.join(', ')}`).toBeLessThan(
      finished.length - 1,
    );
    expect(finished.indexOf('healthz')).toBeLessThan(finished.indexOf('batch 3'));
    // What is checked is the order the answers came in, not their speed: 3,000 products and 80 searches that
    // each match all of them take PostgreSQL on a busy 2-core machine close to the default 20 s.
  }, 60_000);

  it('an address may open only so many checkout sessions', async () => {
    await start({
      ...createRequestLimits({ unlimited: true }),
      checkoutSessions: new FixedWindowLimiter({ limit: 3, windowMs: 600_000 }),
    });
    const checkout = (ip: string) =>
      app.inject({
        method: 'POST',
        url: '/api/trpc/checkout.createSession',
        headers: { 'content-type': 'application/json', origin: 'https://shop.example' },
        payload: { lines: [{ productId: 'p1', size: 'M', quantity: 1 }] },
        remoteAddress: ip,
      });
    for (let i = 0; i < 3; i++) expect((await checkout(SHOPPER)).statusCode).toBe(200);
    const refused = await checkout(SHOPPER);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(
      'Too many checkouts from your address. Please wait a few minutes and try again.',
    );
    expect((await checkout(NEIGHBOUR)).statusCode).toBe(200);
    const pending = await store.handle.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(pending.n)).toBe(4);
  });
});
