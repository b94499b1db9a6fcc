import net, { type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from '../modules/limits/fixed-window-limiter.js';
import { DEFAULT_GATE_LIMITS, PublicCallGate } from '../modules/limits/public-call-gate.js';
import { createRequestLimits, type RequestLimits } from '../modules/limits/request-limits.js';
import { insertProducts } from '../test-support/fixtures.js';
import { buildTestApp, createTestStore, type TestStore } from '../test-support/test-store.js';

/**
 * Every 503 and 429 the store answers says when to come back (Retry-After), whichever route gives it: a
 * shopper's client, a proxy or a monitor can wait that long instead of hammering a store that said no.
 */

/** What the driver throws when the server ended the connection (pg_terminate_backend, a restart). */
const connectionEnded = () =>
  Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

/** The store's database, failing every statement as a lost connection while `away` is true. */
function awayWhile(away: () => boolean): KyselyPlugin {
  return {
    transformQuery(args) {
      if (away()) throw connectionEnded();
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
}

const ORIGIN = 'https://shop.example';
const post = (url: string, payload: unknown, remoteAddress = '198.51.100.7') => ({
  method: 'POST' as const,
  url,
  headers: { 'content-type': 'application/json', origin: ORIGIN },
  payload: JSON.stringify(payload),
  remoteAddress,
});
const trpcGet = (procedure: string, input: unknown) =>
  `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`;
const cart = { lines: [{ productId: 'p1', size: 'M', quantity: 1 }] };

describe('Retry-After on every 503 and 429', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let away = false;

  const start = async (limits: RequestLimits = createRequestLimits({ unlimited: true })) => {
    store = await createTestStore({ env: { PUBLIC_URL: ORIGIN } });
    await insertProducts(store.handle.db, [{ id: 'p1', title: 'Mint Lawn Kurta', sizes: '["M"]' }]);
    app = await buildTestApp(store, { limits, db: store.handle.db.withPlugin(awayWhile(() => away)) });
  };
  afterEach(async () => {
    away = false;
    await app?.close();
    await store?.cleanup();
  });

  it('the database away: tRPC answers, plain routes and /readyz are 503 with Retry-After', async () => {
    await start();
    away = true;
    const checkout = await app.inject(post('/api/trpc/checkout.createSession', cart));
    expect(checkout.statusCode).toBe(503);
    expect(checkout.json().error.message).toBe('The store is busy right now. Please try again in a moment.');
    expect(checkout.headers['retry-after']).toBe('2');

    const quote = await app.inject({ url: trpcGet('checkout.quote', cart) });
    expect(quote.statusCode).toBe(503);
    expect(quote.headers['retry-after']).toBe('2');

    const vitals = await app.inject(
      post('/api/vitals', { path: '/', metrics: [{ name: 'LCP', value: 1200 }] }),
    );
    expect(vitals.statusCode).toBe(503);
    expect(vitals.headers['retry-after']).toBe('2');

    const ready = await app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ failed: 'database' });
    expect(ready.headers['retry-after']).toBe('2');

    away = false;
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    expect((await app.inject(post('/api/trpc/checkout.createSession', cart))).statusCode).toBe(200);
  });

  it('the public-query gate full is a 503, an address over its budget a 429, both with Retry-After', async () => {
    await start({
      ...createRequestLimits({ unlimited: true }),
      publicQueries: new PublicCallGate({ ...DEFAULT_GATE_LIMITS, maxQueued: 0 }),
    });
    const full = await app.inject({ url: trpcGet('catalogue.byId', { id: 'p1' }) });
    expect(full.statusCode).toBe(503);
    expect(full.headers['retry-after']).toBe('2');
    await app.close();
    await store.cleanup();

    await start({
      ...createRequestLimits({ unlimited: true }),
      publicQueries: new PublicCallGate({ ...DEFAULT_GATE_LIMITS, burstMs: 1, refillMsPerSecond: 1 }),
    });
    await app.inject({ url: trpcGet('catalogue.byId', { id: 'p1' }) });
    const over = await app.inject({ url: trpcGet('catalogue.byId', { id: 'p1' }) });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('the per-address limits (checkouts, stock alerts, error reports, vitals) are 429 with their window', async () => {
    await start({
      ...createRequestLimits({ unlimited: true }),
      checkoutSessions: new FixedWindowLimiter({ limit: 1, windowMs: 600_000 }),
      stockAlerts: new FixedWindowLimiter({ limit: 1, windowMs: 3_600_000 }),
    });
    const seconds = (res: { headers: Record<string, unknown> }) => Number(res.headers['retry-after']);
    expect((await app.inject(post('/api/trpc/checkout.createSession', cart))).statusCode).toBe(200);
    const checkout = await app.inject(post('/api/trpc/checkout.createSession', cart));
    expect(checkout.statusCode).toBe(429);
    // Until the address's window ends (the test's own seconds may have passed).
    expect(seconds(checkout)).toBeGreaterThan(590);
    expect(seconds(checkout)).toBeLessThanOrEqual(600);

    const wish = post('/api/trpc/catalogue.notifyWhenBack', {
      productId: 'p1',
      size: 'M',
      email: 'a@example.com',
    });
    await app.inject(wish);
    const alert = await app.inject(wish);
    expect(alert.statusCode).toBe(429);
    expect(seconds(alert)).toBeGreaterThan(3590);
    expect(seconds(alert)).toBeLessThanOrEqual(3600);

    // The telemetry limits are the app's own: 20 error reports and 30 vitals reports a minute.
    const report = { kind: 'error', message: 'boom', route: '/', userAgent: 'test', stack: '' };
    let reported = await app.inject(post('/api/trpc/telemetry.reportError', report));
    for (let i = 0; i < 25 && reported.statusCode === 200; i++)
      reported = await app.inject(post('/api/trpc/telemetry.reportError', report));
    expect(reported.statusCode).toBe(429);
    expect(Number(reported.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(reported.headers['retry-after'])).toBeLessThanOrEqual(60);

    const vital = post('/api/vitals', { path: '/', metrics: [{ name: 'LCP', value: 1200 }] });
    let sent = await app.inject(vital);
    for (let i = 0; i < 35 && sent.statusCode === 204; i++) sent = await app.inject(vital);
    expect(sent.statusCode).toBe(429);
    expect(Number(sent.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(sent.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('a webhook on a store that takes none is a 503 with Retry-After', async () => {
    await start();
    const res = await app.inject(post('/api/stripe/webhook', { id: 'evt_1' }));
    expect(res.statusCode).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('a request that reaches a closing server gets its 503 with Retry-After', async () => {
    // The first request is held in the database until the server has started closing; the second comes
    // on the same connection behind it (as a load balancer's pooled connection sends it), so it reaches the
    // server while it closes, and Fastify answers it before any hook.
    let entered: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let hold = false;
    store = await createTestStore({ env: { PUBLIC_URL: ORIGIN } });
    app = await buildTestApp(store, {
      db: store.handle.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          if (hold) {
            hold = false;
            entered();
            await released;
          }
          return args.result;
        },
      }),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    hold = true;
    socket.write('GET /readyz HTTP/1.1\r\nHost: shop\r\n\r\n');
    await held;
    const closing = app.close();
    // Fastify stops listening after its preClose hooks: from then on it is closing.
    while (app.server.listening) await new Promise((r) => setTimeout(r, 5));
    socket.write('GET /healthz HTTP/1.1\r\nHost: shop\r\n\r\n');
    release();
    await closing;
    await ended;
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503/);
    expect(answers[1]).toMatch(/\r\nretry-after: 5\r\n/i);
  });
});
