import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogProducts } from '../modules/catalog-versions/catalog-versions.service.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  SESSION_FACTS,
  type TestStore,
} from '../test-support/test-store.js';

const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';

async function multipart(fields: Record<string, string>, file?: { name: string; text: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([file.text], { type: 'application/yaml' }), file.name);
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    contentType: res.headers.get('content-type') ?? '',
  };
}

describe('catalogue file routes', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let cookie: string;
  beforeEach(async () => {
    store = await createTestStore({ demo: true });
    await createAdmin(store, EMAIL, PASSWORD);
    app = await buildTestApp(store);
    cookie = await loginCookie(app, EMAIL, PASSWORD);
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  it('streams a version file to admins only', async () => {
    const v = await store
      .caller({ admin: { id: 1, email: EMAIL, loginAt: '', role: 'owner' as const, ...SESSION_FACTS } })
      .admin.catalog.export({});
    const url = `/api/admin/catalog/versions/${v.id}/download`;
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const res = await app.inject({ method: 'GET', url, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/yaml');
    expect(res.headers['content-disposition']).toContain(v.fileName);
    expect(res.body).toContain('total_products:');
    const missing = await app.inject({
      method: 'GET',
      url: '/api/admin/catalog/versions/cv_nope/download',
      headers: { cookie },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('imports a multipart file for admins and refuses a missing file or a hostile one', async () => {
    const post = async (body: Awaited<ReturnType<typeof multipart>>, withCookie = true) =>
      app.inject({
        method: 'POST',
        url: '/api/admin/catalog/import',
        headers: { 'content-type': body.contentType, ...(withCookie ? { cookie } : {}) },
        payload: body.payload,
      });
    const file = {
      name: 'c.yaml',
      text: 'products:\n  - { id: http_1, title: T, description: D, price: 5, currency: usd }\n',
    };
    expect((await post(await multipart({ mode: 'add' }, file), false)).statusCode).toBe(401);
    const ok = await post(await multipart({ mode: 'add' }, file));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      added: 1,
      message: 'Catalog imported successfully: 1 of 1 products added',
    });
    const none = await post(await multipart({ mode: 'add' }));
    expect(none.json()).toMatchObject({ message: 'Please select a file to import' });
    const bomb = await post(
      await multipart({ mode: 'overwrite' }, { name: 'b.yaml', text: 'a: &a [1]\nproducts: [*a]' }),
    );
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json().message).toMatch(/anchors/);
    const big = await post(
      await multipart({ mode: 'add' }, { name: 'big.yaml', text: 'x'.repeat(21 * 1024 * 1024) }),
    );
    expect(big.statusCode).toBe(413);
  });

  it('a kill -9 during a large overwrite import leaves the previous catalogue and a sound database', async () => {
    const before = await catalogProducts(store.handle.db);
    const lines = Array.from(
      { length: 30_000 },
      (_, i) =>
        `  - { id: big_${i}, sku: BIG-${i}, title: Big ${i}, description: Generated, price: '10.00', currency: usd, tags: [a, b], media: [{ url: 'https://img.example.com/${i}.jpg', fileName: '${i}.jpg' }] }`,
    );
    const file = path.join(store.dir, 'big.yaml');
    writeFileSync(file, `metadata: { format: storefront-catalog/1 }\nproducts:\n${lines.join('\n')}\n`);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/test-support/catalog-import-child.ts',
        store.dir,
        file,
        ...(store.postgresUrl ? [store.postgresUrl] : []),
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const outcome = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('replacing')) child.kill('SIGKILL');
      });
      child.on('exit', (code, signal) => resolve(`${out.trim()} ${signal ?? code}`));
    });
    expect(outcome).toBe('replacing SIGKILL');
    expect(await catalogProducts(store.handle.db)).toEqual(before);
    if (store.engine === 'sqlite') {
      const check = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(store.handle.db);
      expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
    }
    // The search index holds exactly the products there are: nothing of the killed import is left in it.
    const indexed = await sql<{ n: number }>`SELECT count(*) AS n FROM product_search_ids`.execute(
      store.handle.db,
    );
    expect(Number(indexed.rows[0]?.n)).toBe(before.length);
  }, 60_000);
});
