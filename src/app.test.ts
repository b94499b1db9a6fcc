import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { insertProducts } from './test-support/fixtures.js';
import { buildTestApp, createTestStore, type TestStore } from './test-support/test-store.js';

const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>';

function makeClientDir(store: TestStore): string {
  const dir = path.join(store.dir, 'client');
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  const js = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), js);
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js.br'), brotliCompressSync(js));
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

const batchUrl = (calls: string[], input: Record<number, unknown> = {}) =>
  `/api/trpc/${calls.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;

describe('HTTP application', () => {
  let store: TestStore;
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
    await store.cleanup();
  });

  it('reports liveness at /healthz and readiness (database included) at /readyz', async () => {
    store = await createTestStore();
    app = await buildTestApp(store);
    const res = await app.inject('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect((await app.inject('/readyz')).json()).toEqual({ status: 'ok' });
  });

  it('answers batched tRPC GETs and refuses batches over the limit', async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'p1', title: 'Mint Kurta' }]);
    app = await buildTestApp(store);
    const res = await app.inject(batchUrl(['catalogue.search', 'site.settings'], { 0: { limit: 5 } }));
    expect(res.statusCode).toBe(200);
    const [list, settings] = res.json() as [
      { result: { data: { items: { title: string }[] } } },
      { result: { data: { storeName: string } } },
    ];
    expect(list.result.data.items[0]?.title).toBe('Mint Kurta');
    expect(settings.result.data.storeName).toBe('My Store');

    const tooMany = await app.inject(batchUrl(Array.from({ length: 21 }, () => 'site.settings')));
    expect(tooMany.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('flattens validation errors for forms', async () => {
    store = await createTestStore();
    app = await buildTestApp(store);
    const res = await app.inject(batchUrl(['catalogue.search'], { 0: { limit: 'lots' } }));
    expect(res.statusCode).toBe(400);
    const [body] = res.json() as [
      { error: { message: string; data: { zodError: { fieldErrors: Record<string, string[]> } } } },
    ];
    expect(body.error.message).toBe('Invalid input');
    expect(body.error.data.zodError.fieldErrors.limit?.length).toBeGreaterThan(0);
  });

  it('hides internal error text and stacks in production but gives a request id', async () => {
    store = await createTestStore({ env: { NODE_ENV: 'production' } });
    app = await buildTestApp(store);
    await insertProducts(store.handle.db, [{ id: 'plink_x' }]); // its card reads the media table
    await store.handle.db.schema.dropTable('media').execute(); // a broken database: queries now fail
    const res = await app.inject(batchUrl(['catalogue.search'], { 0: {} }));
    expect(res.statusCode).toBe(500);
    const text = res.body;
    expect(text).not.toMatch(/no such table|SqliteError|at .*\.js/);
    const [body] = res.json() as [
      { error: { message: string; data: { requestId: string; stack?: string } } },
    ];
    expect(body.error.message).toBe('Something went wrong on our side. Please try again.');
    expect(body.error.data.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.error.data.stack).toBeUndefined();
  });

  it('serves the client: pages with 200, unknown paths with 404, index.html never cached', async () => {
    store = await createTestStore();
    app = await buildTestApp(store, { clientDir: makeClientDir(store) });

    const home = await app.inject('/');
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toContain('text/html');
    expect(home.headers['cache-control']).toBe('no-cache');
    expect(home.body).toContain('<div id="root"></div>');
    expect(home.body).toContain('<script type="module" src="/assets/app-abc123.js"></script>');

    await insertProducts(store.handle.db, [{ id: 'plink_x' }]);
    expect((await app.inject('/product/plink_x')).statusCode).toBe(200);
    expect((await app.inject('/product/plink_gone')).statusCode).toBe(404);

    const missing = await app.inject('/no/such/page');
    expect(missing.statusCode).toBe(404);
    // The app's page, told to stay out of search results (a 404 is no page of the store).
    expect(missing.body).toBe(INDEX_HTML.replace('</head>', '<meta name="robots" content="noindex"></head>'));

    const missingAsset = await app.inject('/assets/gone-123.js');
    expect(missingAsset.statusCode).toBe(404);
    expect(missingAsset.headers['content-type']).toContain('application/json');

    const api = await app.inject('/api/nothing');
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toContain('application/json');
  });

  it('serves hashed assets precompressed and cached for a year', async () => {
    store = await createTestStore();
    app = await buildTestApp(store, { clientDir: makeClientDir(store) });
    const res = await app.inject({
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await app.inject('/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(4000);
  });

  it('sends a strict Content-Security-Policy and the usual security headers', async () => {
    store = await createTestStore();
    app = await buildTestApp(store, { clientDir: makeClientDir(store) });
    const res = await app.inject('/');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('serves stored media sandboxed, and refuses paths outside the media folder', async () => {
    store = await createTestStore();
    await store.storage.put(
      'media/demo/a.svg',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    );
    app = await buildTestApp(store);
    const res = await app.inject('/media/demo/a.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const traversal = await app.inject('/media/../store.db');
    expect(traversal.statusCode).toBe(404);
    const encoded = await app.inject('/media/%2e%2e/store.db');
    expect(encoded.statusCode).toBe(404);
  });
});
