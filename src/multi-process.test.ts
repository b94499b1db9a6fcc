import { randomBytes } from 'node:crypto';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresMigrations } from '../migrations/postgres/index.js';
import { type ServerProcess, startServer } from '../scripts/launcher/server.js';
import type { FileStorage } from './storage/file-storage.js';
import { demoShopper } from './test-support/fixtures.js';
import { createThrowawayDatabase, type ThrowawayDatabase } from './test-support/postgres.js';
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from './test-support/s3.js';
import { testEngine } from './test-support/test-store.js';

/**
 * Two store processes on one PostgreSQL database and one S3 bucket (s3rver), as a shop behind a load
 * balancer runs them: what one process does, the other shows, and what must hold for the shop holds across
 * both. Real processes (src/main.ts), real HTTP, real servers; run in the PostgreSQL pass of the suite.
 */
const ADMIN = { email: 'owner@shop.example', password: 'a long enough password 1' };

type Store = { a: ServerProcess; b: ServerProcess };

const trpc = (procedure: string, input?: unknown) =>
  `/api/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;

async function post(base: string, procedure: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(`${base}/api/trpc/${procedure}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

async function signIn(base: string): Promise<string> {
  const res = await post(base, 'auth.login', ADMIN);
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  return cookie.join('; ');
}

type SearchAnswer = {
  result: {
    data: { items: Array<{ id: string; title: string; colours?: Array<{ name: string }> }>; total: number };
  };
};

async function search(base: string, q?: string): Promise<SearchAnswer['result']['data']> {
  const res = await fetch(`${base}${trpc('catalogue.search', { limit: 48, ...(q ? { q } : {}) })}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as SearchAnswer).result.data;
}

/** Polls `check` until it is true; returns how long that took, or throws after `withinMs`. */
async function within(withinMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`not seen within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

const productFields = (title: string, sku: string) => ({
  title,
  description: 'Cut and sewn for two processes.',
  manufacturer: 'Twin Looms',
  manufacturerUrl: '',
  sku,
  price: '25.00',
  currency: 'usd',
  pageOrder: 0,
  sizes: ['S', 'M'],
  tags: ['twin'],
  colors: [],
  sizeDetail: {},
  stripePaymentLink: '',
  productLink: '',
  imageFolder: '',
});

describe.skipIf(testEngine !== 'postgres')('two store processes on one PostgreSQL database', () => {
  let database: ThrowawayDatabase;
  let pool: pg.Pool;
  let s3: TestS3Server;
  let bucket: { name: string; storage: FileStorage };
  let store: Store;
  const env = () => ({
    DATABASE_URL: database.url,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    ...s3.env(bucket.name),
  });

  beforeAll(async () => {
    database = await createThrowawayDatabase('store_twins');
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    s3 = await startS3Server();
    bucket = await s3.bucket();
    const shared = env();
    // Started together on an empty database: both migrate, one does the work.
    const [a, b] = await Promise.all([
      startServer({ entry: 'source', env: shared, timeoutMs: 60_000 }),
      startServer({ entry: 'source', env: shared, timeoutMs: 60_000 }),
    ]);
    store = { a, b };
  }, 90_000);

  afterAll(async () => {
    await Promise.all([store?.a.stop(), store?.b.stop()]);
    await pool?.end();
    await database?.drop();
    await s3?.close();
  });

  it('started together on an empty database, applied each migration once and loaded the demo once', async () => {
    const migrations = await pool.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name');
    expect(migrations.rows.map((r) => r.name)).toEqual(Object.keys(postgresMigrations).sort());
    const loaded = [store.a, store.b].filter((p) => p.output().includes('Loaded the demo catalogue'));
    expect(loaded).toHaveLength(1);
    expect((await search(store.a.baseUrl)).total).toBe((await search(store.b.baseUrl)).total);
  });

  it('keeps the demo pictures in the bucket, once, and both processes serve them alike', async () => {
    const demo: string[] = [];
    for await (const file of bucket.storage.list('media/demo/')) demo.push(file.key);
    expect(demo.length).toBeGreaterThan(10);
    const [fromA, fromB] = await Promise.all([store.a, store.b].map((p) => fetch(`${p.baseUrl}/${demo[0]}`)));
    expect(fromA?.status).toBe(200);
    expect(fromB?.status).toBe(200);
    expect(fromA?.headers.get('etag')).toBe(fromB?.headers.get('etag'));
  });

  it('a product an admin creates on A with an uploaded picture: within 1 s B finds it, shows it and serves the picture', async () => {
    const cookie = await signIn(store.a.baseUrl);
    const created = await post(
      store.a.baseUrl,
      'admin.products.create',
      { fields: productFields('Twin Process Kurta', 'TWIN-1') },
      cookie,
    );
    expect(created.status).toBe(200);
    const { id } = ((await created.json()) as { result: { data: { id: string } } }).result.data;
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#2a6' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(png)]), 'twin.png');
    const upload = await fetch(`${store.a.baseUrl}/api/admin/products/${id}/media`, {
      method: 'POST',
      headers: { cookie },
      body: form,
    });
    expect(upload.status).toBe(201);
    const [picture] = ((await upload.json()) as { items: { url: string }[] }).items;
    if (!picture) throw new Error('one media item expected');

    const tookMs = await within(1000, async () => {
      const found = (await search(store.b.baseUrl, 'twin process')).items.some((p) => p.id === id);
      const detail = await fetch(`${store.b.baseUrl}${trpc('catalogue.byId', { id })}`);
      // The facet counts too: B's facet snapshot catches up from the change log in the database.
      const facets = await fetch(`${store.b.baseUrl}${trpc('catalogue.facets', {})}`);
      return (
        found &&
        detail.status === 200 &&
        (await detail.text()).includes(picture.url) &&
        (await facets.text()).includes('Twin Looms')
      );
    });
    expect(tookMs).toBeLessThan(1000);
    const served = await fetch(`${store.b.baseUrl}${picture.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(
      Buffer.from(await served.arrayBuffer()).equals(await bucket.storage.read(picture.url.slice(1))),
    ).toBe(true);
    // The session key is SESSION_SECRET's on both, so the load balancer may send the admin to either.
    const list = await fetch(`${store.b.baseUrl}${trpc('admin.products.list', {})}`, { headers: { cookie } });
    expect(list.status).toBe(200);
  });

  it('a sign-in brute force spread over A and B is stopped at the same count as on one process', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) {
      const base = i % 2 === 0 ? store.a.baseUrl : store.b.baseUrl;
      const res = await post(base, 'auth.login', { email: 'victim@shop.example', password: `guess ${i}` });
      statuses.push(res.status);
    }
    const refusedAt = statuses.indexOf(429);
    // Ten wrong passwords per account and address (the throttle's perAccount), wherever they were tried.
    expect(statuses.slice(0, refusedAt)).toEqual(Array(10).fill(401));
    expect(statuses.slice(refusedAt).every((s) => s === 429)).toBe(true);
  });

  it('a demo checkout started on A is completed on B', async () => {
    const { items } = await search(store.a.baseUrl);
    const product = items[0];
    if (!product) throw new Error('the demo catalogue is empty');
    const started = await post(store.a.baseUrl, 'checkout.createSession', {
      // A product with colours is bought in one of them.
      lines: [{ productId: product.id, colour: product.colours?.[0]?.name ?? null, size: 'M', quantity: 1 }],
    });
    expect(started.status).toBe(200);
    const { url } = ((await started.json()) as { result: { data: { url: string } } }).result.data;
    const sessionId = new URL(url, store.a.baseUrl).searchParams.get('session_id') ?? '';
    const completed = await post(store.b.baseUrl, 'checkout.completeTestPayment', {
      sessionId,
      ...demoShopper,
    });
    expect(completed.status).toBe(200);
    const order = await fetch(`${store.a.baseUrl}${trpc('checkout.order', { sessionId })}`);
    expect(((await order.json()) as { result: { data: { status: string } } }).result.data.status).toBe(
      'paid',
    );
  });

  it('kill -9 on A during an overwrite import: B serves the old catalogue or the new one, never a mix', async () => {
    const before = (await search(store.b.baseUrl)).total;
    const cookie = await signIn(store.a.baseUrl);
    const count = 20_000;
    const lines = Array.from(
      { length: count },
      (_, i) =>
        `  - { id: swap_${i}, sku: SWAP-${i}, title: Swap ${i}, description: Generated, price: '10.00', currency: usd, tags: [a, b] }`,
    );
    const form = new FormData();
    form.append('mode', 'overwrite');
    form.append(
      'file',
      new Blob([`metadata: { format: storefront-catalog/1 }\nproducts:\n${lines.join('\n')}\n`]),
      'swap.yaml',
    );
    const upload = fetch(`${store.a.baseUrl}/api/admin/catalog/import`, {
      method: 'POST',
      headers: { cookie },
      body: form,
    }).catch(() => null);

    // B is read all along; A dies once its replacing transaction has written rows.
    const seen = new Set<number>();
    let killed = false;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !killed) {
      seen.add((await search(store.b.baseUrl)).total);
      const writing = await pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity
         WHERE datname = current_database()
           AND (state = 'idle in transaction' OR query ILIKE 'insert into "products"%')`,
      );
      if (Number(writing.rows[0]?.n) > 0) {
        await store.a.kill();
        killed = true;
      }
    }
    expect(killed).toBe(true);
    await upload;
    for (let i = 0; i < 20; i++) seen.add((await search(store.b.baseUrl)).total);
    expect([...seen].every((total) => total === before || total === count)).toBe(true);
    // The transaction died with A: the old catalogue, whole.
    await within(5000, async () => (await search(store.b.baseUrl)).total === before);
  }, 90_000);
});
