import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProducts } from '../test-support/fixtures.js';
import { buildTestApp, createTestStore, type TestStore } from '../test-support/test-store.js';

const TEMPLATE =
  '<!doctype html><html><head><meta name="description" content="default"><title>Store</title></head><body><div id="root"></div></body></html>';

/**
 * The whole server render, as a shopper's first request gets it: the app's head (src/http/seo.ts) and the
 * client's own page tree rendered on the server. The server bundle is the client's source itself (vitest
 * compiles it), so no build is needed and nothing is stood in for.
 */
describe('server-rendered listings and missing pages', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let root: string;
  beforeAll(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [
      { id: 'plink_silk', title: 'Silk Kurta', tags: '["Lawn"]' },
      { id: 'plink_lawn', title: 'Mint Lawn Suit', tags: '["Lawn"]' },
    ]);
    root = mkdtempSync(path.join(tmpdir(), 'store-render-'));
    mkdirSync(path.join(root, 'client'));
    mkdirSync(path.join(root, 'ssr'));
    writeFileSync(path.join(root, 'client', 'index.html'), TEMPLATE);
    // Where the app looks for its server bundle: next to the client's directory (src/app.ts).
    const entry = path.resolve(import.meta.dirname, '../../client/src/entry-server.tsx');
    writeFileSync(
      path.join(root, 'ssr', 'entry-server.js'),
      `export { renderPage } from ${JSON.stringify(entry)};`,
    );
    app = await buildTestApp(store, { clientDir: path.join(root, 'client') });
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  const headings = (html: string) => [...html.matchAll(/<h1[^>]*>([^<]*)<\/h1>/g)].map((m) => m[1]);
  const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

  it('gives a search or a filtered listing its own title and heading, the whole catalogue its welcome', async () => {
    const home = await app.inject('/');
    expect(home.statusCode).toBe(200);
    expect(titleOf(home.body)).toBe('My Store');
    expect(headings(home.body)).toEqual(['Welcome to the store']);

    const search = await app.inject('/?q=silk');
    expect(search.statusCode).toBe(200);
    expect(titleOf(search.body)).toBe('Search: silk · My Store');
    expect(headings(search.body)).toEqual(['Search: silk']);
    expect(search.body).toContain('Silk Kurta');

    const filtered = await app.inject('/?tag=Lawn&size=M');
    expect(titleOf(filtered.body)).toBe('Lawn · size M · My Store');
    expect(headings(filtered.body)).toEqual(['Lawn · size M']);
  });

  it('shows a typed search as text in the heading, never as markup', async () => {
    const res = await app.inject(`/?q=${encodeURIComponent('<img src=x onerror=alert(1)> silk')}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<img src=x');
    expect(headings(res.body)).toEqual(['Search: &lt;img src=x onerror=alert(1)&gt; silk']);
  });

  it('answers a missing product with 404 and a page of its own: a heading, a search, the way home', async () => {
    const res = await app.inject('/product/does-not-exist');
    expect(res.statusCode).toBe(404);
    expect(titleOf(res.body)).toBe('Product not found · My Store');
    expect(res.body).toContain('<meta name="robots" content="noindex">');
    expect(headings(res.body)).toEqual(['Product not found']);
    // The search works without the app's script: a GET form to the listing.
    expect(res.body).toMatch(/<search[^>]*><form[^>]*action="\/" method="get"/);
    expect(res.body).toMatch(/<input[^>]*type="search"[^>]*name="q"/);
    expect(res.body).toMatch(/<a href="\/" class="[^"]*">Go Home<\/a>/);
    expect(res.body).not.toMatch(/http-equiv="refresh"/i);
  });

  it('answers an unknown address the same way', async () => {
    const res = await app.inject('/no/such/page');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<meta name="robots" content="noindex">');
    expect(headings(res.body)).toEqual(['Oops! Page Not Found']);
    expect(res.body).toMatch(/<input[^>]*type="search"[^>]*name="q"/);
    expect(res.body).toMatch(/<a href="\/" class="[^"]*">Go Home<\/a>/);
  });
});
