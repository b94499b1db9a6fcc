import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { FakeStripe } from '../../test-support/fake-stripe.js';
import { insertProducts } from '../../test-support/fixtures.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  type TestStore,
} from '../../test-support/test-store.js';
import { createStripeClient, StripeGateway } from '../payments/stripe-gateway.js';
import { detailsJson, REDACTED } from './log-details.js';
import { LogService } from './log-service.js';
import { createLogStream } from './log-stream.js';
import { escapeLike } from './logs.repository.js';

const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';
const STRIPE_KEY = 'sk_test_logsecret123456';
const WEBHOOK_SECRET = 'whsec_logsecret654321';
const json = { 'content-type': 'application/json' };

type Row = {
  id: number;
  time: string;
  level: string;
  source: string;
  message: string;
  details: string;
  request_id: string | null;
  repeat_count: number;
};

describe('the application log', () => {
  let store: TestStore;
  let app: FastifyInstance | undefined;
  let logs: LogService;
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await store.cleanup();
  });

  async function setup(env: Record<string, string> = {}) {
    store = await createTestStore({ env });
    await createAdmin(store, EMAIL, PASSWORD);
    await insertProducts(store.handle.db, [{ id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500 }]);
    logs = new LogService({ db: store.handle.db, limits: store.config.logs });
  }
  const rows = async (): Promise<Row[]> => {
    await logs.flush();
    return store.handle.db.selectFrom('logs').selectAll().orderBy('id').execute() as Promise<Row[]>;
  };
  const trpc = (path: string, body: unknown, cookie?: string) =>
    (app as FastifyInstance).inject({
      method: 'POST',
      url: `/api/trpc/${path}`,
      headers: { ...json, ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(body),
    });

  it('records sign-ins, failures, checkout, products, settings, webhooks and uncaught errors, and no secret', async () => {
    await setup({ STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
    const fake = await new FakeStripe().start();
    onTestFinished(() => fake.stop());
    const stripe = createStripeClient({ secretKey: STRIPE_KEY, apiUrl: fake.url });
    app = await buildTestApp(store, {
      logService: logs,
      payments: new StripeGateway(stripe, WEBHOOK_SECRET),
    });
    app.get('/api/test-boom', async () => {
      throw new Error('kaboom in a handler');
    });

    expect((await trpc('auth.login', { email: EMAIL, password: 'my-wrong-guess-123' })).statusCode).toBe(401);
    const cookie = await loginCookie(app, EMAIL, PASSWORD);
    const cookieValue = cookie.slice('store_session='.length);

    const checkout = await trpc('checkout.createSession', {
      lines: [{ productId: 'k1', size: 'M', quantity: 1 }],
    });
    expect(checkout.statusCode).toBe(200);

    const product = await app.inject({
      url: '/api/trpc/admin.products.byId?input=%7B%22id%22%3A%22k1%22%7D',
      headers: { cookie },
    });
    const current = (product.json() as { result: { data: Record<string, unknown> } }).result.data;
    const update = await trpc(
      'admin.products.update',
      {
        id: 'k1',
        expectedUpdatedAt: current.updatedAt,
        fields: {
          title: 'Mint Lawn Kurta II',
          description: 'Breezy lawn.',
          manufacturer: 'Zarnigar',
          manufacturerUrl: '',
          sku: 'ZA-1',
          price: '90.00',
          currency: 'usd',
          pageOrder: 1,
          sizes: ['S', 'M'],
          tags: [],
          colors: [],
          sizeDetail: {},
          stripePaymentLink: '',
          productLink: '',
          imageFolder: '',
        },
      },
      cookie,
    );
    expect(update.statusCode).toBe(200);

    const webhook = await app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { ...json, 'stripe-signature': 't=1,v1=deadbeef' },
      payload: JSON.stringify({ id: 'evt_1', card: '4242424242424242' }),
    });
    expect(webhook.statusCode).toBe(400);

    const boom = await app.inject({ url: '/api/test-boom' });
    expect(boom.statusCode).toBe(500);
    const requestId = (boom.json() as { requestId: string }).requestId;

    const all = await rows();
    const find = (source: string, message: RegExp) =>
      all.find((r) => r.source === source && message.test(r.message));
    expect(find('admin', /sign-in failed|invalid/i) ?? find('admin', /fail/i)).toMatchObject({
      level: 'warning',
    });
    expect(find('admin', /^admin signed in$/)).toMatchObject({ level: 'info' });
    expect(find('checkout', /checkout session created/)).toMatchObject({ level: 'info' });
    expect(find('product', /product updated: Mint Lawn Kurta II/)).toMatchObject({ level: 'info' });
    expect(find('stripe', /signature/)).toMatchObject({ level: 'warning' });
    const error = find('server', /kaboom in a handler/);
    expect(error).toMatchObject({ level: 'error', request_id: requestId });
    expect(JSON.parse(error?.details ?? '{}')).toMatchObject({ error: { message: 'kaboom in a handler' } });
    // Request logs without an event stay on standard output only.
    expect(all.filter((r) => /incoming request|request completed/.test(r.message))).toEqual([]);

    const everything = JSON.stringify(all);
    for (const secret of [
      PASSWORD,
      'my-wrong-guess-123',
      cookieValue,
      STRIPE_KEY,
      WEBHOOK_SECRET,
      '4242424242424242',
    ]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toContain('store_session');
  });

  it('records media changes with source media', async () => {
    await setup();
    app = await buildTestApp(store, { logService: logs });
    const cookie = await loginCookie(app, EMAIL, PASSWORD);
    const media = await trpc(
      'admin.media.addUrl',
      { productId: 'k1', url: 'https://images.example.com/a.jpg', fileName: 'a.jpg', mediaType: 'image' },
      cookie,
    );
    expect(media.statusCode).toBe(200);
    const all = await rows();
    expect(all.find((r) => r.source === 'media')).toMatchObject({
      level: 'info',
      message: 'media added by URL',
    });
  });

  it('takes client error reports with source client, limited per IP and by size', async () => {
    await setup();
    app = await buildTestApp(store, { logService: logs });
    const report = (message: string, extra: Record<string, unknown> = {}) =>
      trpc('telemetry.reportError', {
        kind: 'error',
        message,
        route: '/product/k1?utm=x',
        userAgent: 'Test UA',
        stack: 'Error: x\n    at y',
        ...extra,
      });
    expect((await report('x'.repeat(501))).statusCode).toBe(400);
    expect((await report('ok', { stack: 's'.repeat(4001) })).statusCode).toBe(400);
    for (let i = 0; i < 20; i++) expect((await report(`boom ${i}`)).statusCode).toBe(200);
    expect((await report('one too many')).statusCode).toBe(429);
    const client = (await rows()).filter((r) => r.source === 'client');
    expect(client).toHaveLength(20);
    expect(client[0]).toMatchObject({ level: 'error', message: 'boom 0' });
    expect(JSON.parse(client[0]?.details ?? '{}')).toMatchObject({
      route: '/product/k1',
      userAgent: 'Test UA',
    });
  });

  it('lists, filters, searches (LIKE wildcards are literal), pages, exports and clears for admins only', async () => {
    await setup();
    app = await buildTestApp(store, { logService: logs });
    const t = new Date('2026-11-22T10:00:00.000Z').getTime();
    logs.record({ time: new Date(t), level: 'info', source: 'product', message: 'product created: 50% off' });
    logs.record({
      time: new Date(t + 10_000),
      level: 'error',
      source: 'checkout',
      message: 'checkout failed',
    });
    logs.record({
      time: new Date(t + 20_000),
      level: 'warning',
      source: 'admin',
      message: 'sign-in failed a_b',
    });
    logs.record({ time: new Date(t + 30_000), level: 'info', source: 'admin', message: 'sign-in axb' });
    const cookie = await loginCookie(app, EMAIL, PASSWORD);
    const list = async (input: Record<string, unknown>) => {
      const res = await (app as FastifyInstance).inject({
        url: `/api/trpc/admin.logs.list?input=${encodeURIComponent(JSON.stringify(input))}`,
        headers: { cookie },
      });
      expect(res.statusCode).toBe(200);
      return (
        res.json() as { result: { data: { items: Row[]; nextCursor: number | null; total: number | null } } }
      ).result.data;
    };
    const messages = async (input: Record<string, unknown>) =>
      (await list(input)).items.map((i) => i.message);
    expect(await messages({ level: 'error' })).toEqual(['checkout failed']);
    expect(await messages({ source: 'admin', level: 'warning' })).toEqual(['sign-in failed a_b']);
    expect(await messages({ q: '50%' })).toEqual(['product created: 50% off']);
    expect(await messages({ q: 'a_b' })).toEqual(['sign-in failed a_b']);
    expect(await messages({ q: 'SIGN-IN' })).toHaveLength(2);
    const first = await list({ limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.total).toBeGreaterThanOrEqual(4);
    const second = await list({ limit: 2, cursor: first.nextCursor });
    expect(second.items[0]?.id).toBeLessThan(first.items[1]?.id ?? 0);

    const sources = await app.inject({ url: '/api/trpc/admin.logs.sources', headers: { cookie } });
    expect((sources.json() as { result: { data: { sources: string[] } } }).result.data.sources).toEqual(
      expect.arrayContaining(['admin', 'checkout', 'product']),
    );

    expect((await app.inject({ url: '/api/admin/logs/export' })).statusCode).toBe(401);
    const exported = await app.inject({ url: '/api/admin/logs/export?source=admin', headers: { cookie } });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(/attachment; filename="store-log-.*\.jsonl"/);
    const lines = exported.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { source: string });
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.every((l) => l.source === 'admin')).toBe(true);

    expect((await trpc('admin.logs.clear', {})).statusCode).toBe(401);
    expect((await trpc('admin.logs.clear', {}, cookie)).statusCode).toBe(200);
    expect(await rows()).toEqual([]);
  });

  it('folds identical entries within 2 seconds into one with a repeat count', async () => {
    await setup();
    const t = Date.parse('2026-11-22T10:00:00.000Z');
    const same = (ms: number) =>
      logs.record({ time: new Date(t + ms), level: 'warning', source: 'admin', message: 'sign-in failed' });
    same(0);
    same(500);
    await logs.flush(); // folding works across batches too
    same(1900);
    logs.record({ time: new Date(t + 1950), level: 'error', source: 'admin', message: 'sign-in failed' });
    same(5000);
    const all = await rows();
    expect(all.map((r) => [r.level, r.repeat_count])).toEqual([
      ['warning', 3],
      ['error', 1],
      ['warning', 1],
    ]);
  });

  it('prunes by age and by count', async () => {
    await setup({ LOG_MAX_ENTRIES: '100', LOG_RETENTION_DAYS: '2' });
    const now = Date.parse('2026-11-22T10:00:00.000Z');
    for (let i = 0; i < 150; i++) {
      logs.record({
        time: new Date(now - i * 60_000),
        level: 'info',
        source: 'product',
        message: `entry ${i}`,
      });
    }
    logs.record({ time: new Date(now - 3 * 86_400_000), level: 'info', source: 'product', message: 'old' });
    await logs.flush();
    const removed = await logs.prune(new Date(now));
    expect(removed).toBe(51);
    const left = await rows();
    expect(left).toHaveLength(100);
    expect(left.some((r) => r.message === 'old')).toBe(false);
    // The count limit keeps the most recently written entries.
    expect(left.some((r) => r.message === 'entry 49')).toBe(false);
    expect(left.some((r) => r.message === 'entry 50')).toBe(true);
  });

  it('never throws into the caller when the database is gone, and keeps writing to the output', async () => {
    await setup();
    const errors: unknown[] = [];
    const service = new LogService({
      db: store.handle.db,
      limits: store.config.logs,
      onError: (e) => errors.push(e),
    });
    const out: string[] = [];
    const stream = createLogStream({
      service,
      output: { write: (l: string) => out.push(l) },
      outputLevel: 'info',
    });
    await store.loseDatabase();
    stream.write(`${JSON.stringify({ level: 30, time: Date.now(), event: 'product.created', msg: 'x' })}\n`);
    stream.write('not json "event":"x"\n');
    await expect(service.flush()).resolves.toBeUndefined();
    expect(out).toHaveLength(2);
    expect(errors.length).toBeGreaterThan(0);
    await store.cleanup();
    store = await createTestStore(); // afterEach cleans this one up
  });
});

describe('log details', () => {
  it('redacts secret keys and secret-looking values and stays under 4 KB', () => {
    const details = JSON.parse(
      detailsJson({
        password: 'p',
        nested: { Cookie: 'c', sessionToken: 't', apiKey: 'k', cardNumber: '4242' },
        note: 'uses sk_live_abcdef and whsec_xyz',
        account: 'owner@shop.example',
      }),
    ) as Record<string, unknown>;
    expect(details).toEqual({
      password: REDACTED,
      nested: { Cookie: REDACTED, sessionToken: REDACTED, apiKey: REDACTED, cardNumber: REDACTED },
      note: `uses ${REDACTED} and ${REDACTED}`,
      account: 'owner@shop.example',
    });
    const big = detailsJson({ items: Array.from({ length: 40 }, (_, i) => `${i}`.repeat(900)) });
    expect(Buffer.byteLength(big)).toBeLessThanOrEqual(4096);
    expect(JSON.parse(big)).toMatchObject({ truncated: true });
  });

  it('escapes LIKE wildcards', () => {
    expect(escapeLike('50%_\\x')).toBe('50\\%\\_\\\\x');
  });
});
