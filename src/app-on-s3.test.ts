import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminMediaItem } from './modules/media/media.repository.js';
import type { FileStorage } from './storage/file-storage.js';
import { insertProducts } from './test-support/fixtures.js';
import { startS3Server, type TestS3Server } from './test-support/s3.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  SESSION_FACTS,
  type TestStore,
} from './test-support/test-store.js';

/**
 * The whole store with its files in an S3 bucket (s3rver through the real AWS SDK): uploads, the banner,
 * catalogue versions and downloads, and the demo catalogue go to the bucket and come back through the
 * store; nothing is written to the data folder's media/ or catalogs/.
 */

const ADMIN = { id: 1, email: 'owner@shop.example', loginAt: '', role: 'owner' as const, ...SESSION_FACTS };
const PASSWORD = 'correct horse battery';

async function form(field: string, files: { name: string; data: Uint8Array }[], fields = {}) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, String(v));
  for (const f of files) body.append(field, new Blob([new Uint8Array(f.data)]), f.name);
  const res = new Response(body);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    contentType: res.headers.get('content-type') ?? '',
  };
}

async function keys(storage: FileStorage, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const file of storage.list(prefix)) found.push(file.key);
  return found;
}

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});

describe('the store with its files in an S3 bucket', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let cookie: string;
  beforeEach(async () => {
    store = await createTestStore({ storage: (await s3.bucket()).storage });
    await createAdmin(store, ADMIN.email, PASSWORD);
    await insertProducts(store.handle.db, [{ id: 'p1' }]);
    app = await buildTestApp(store);
    cookie = await loginCookie(app, ADMIN.email, PASSWORD);
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  const noLocalFiles = () => {
    expect(existsSync(path.join(store.dir, 'media'))).toBe(false);
    expect(existsSync(path.join(store.dir, 'catalogs'))).toBe(false);
  };

  it('stores uploaded media in the bucket, serves them with validators and removes them with their row', async () => {
    const png = await sharp({ create: { width: 700, height: 400, channels: 3, background: '#a33' } })
      .png()
      .toBuffer();
    const body = await form('files', [
      { name: 'photo.png', data: png },
      { name: 'guide.pdf', data: Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n') },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/products/p1/media',
      headers: { 'content-type': body.contentType, cookie },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const { items } = res.json() as { items: AdminMediaItem[] };
    const [image, pdf] = items;
    if (!image || !pdf) throw new Error('two media expected');
    const stored = await keys(store.storage, 'media/uploads/');
    expect(stored).toContain(image.url.slice(1));
    expect(stored).toContain(pdf.url.slice(1));
    for (const variant of image.variants) expect(stored).toContain(variant.url.slice(1));
    noLocalFiles();

    const served = await app.inject(image.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.rawPayload.equals(await store.storage.read(image.url.slice(1)))).toBe(true);
    const again = await app.inject({
      url: image.url,
      headers: { 'if-none-match': String(served.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const part = await app.inject({ url: pdf.url, headers: { range: 'bytes=0-7' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('%PDF-1.4');
    expect(part.headers['content-disposition']).toBe('attachment');

    await store.caller({ admin: ADMIN }).admin.media.remove({ id: image.id });
    expect(await keys(store.storage, 'media/uploads/')).toEqual([pdf.url.slice(1)]);
    expect((await app.inject(image.url)).statusCode).toBe(404);
  });

  it('keeps nothing in the bucket of a batch that is refused', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3a3' } })
      .png()
      .toBuffer();
    const body = await form('files', [
      { name: 'ok.png', data: png },
      { name: 'page.html', data: Buffer.from('<html><script>alert(1)</script></html>') },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/products/p1/media',
      headers: { 'content-type': body.contentType, cookie },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(415);
    expect(await keys(store.storage, '')).toEqual([]);
  });

  it('stores the banner picture in the bucket and serves it', async () => {
    const jpeg = await sharp({ create: { width: 1200, height: 400, channels: 3, background: '#702' } })
      .jpeg()
      .toBuffer();
    const body = await form('file', [{ name: 'banner.jpg', data: jpeg }]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/settings/banner-image',
      headers: { 'content-type': body.contentType, cookie },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const { url } = res.json() as { url: string };
    expect(await store.storage.exists(url.slice(1))).toBe(true);
    const served = await app.inject(url);
    expect(served.statusCode).toBe(200);
    expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
    noLocalFiles();
  });

  it('keeps catalogue versions in the bucket: export, download, import, view and delete', async () => {
    const admin = store.caller({ admin: ADMIN }).admin.catalog;
    const exported = await admin.export({ label: 'before' });
    const key = `catalogs/${exported.fileName}`;
    expect(await keys(store.storage, 'catalogs/')).toEqual([key]);
    const download = await app.inject({
      url: `/api/admin/catalog/versions/${exported.id}/download`,
      headers: { cookie },
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(await store.storage.read(key))).toBe(true);
    expect((await admin.content({ id: exported.id })).content).toBe(download.body);

    const body = await form(
      'file',
      [
        {
          name: 'c.yaml',
          data: Buffer.from(
            'products:\n  - { id: s3_1, title: T, description: D, price: 5, currency: usd }\n',
          ),
        },
      ],
      { mode: 'overwrite' },
    );
    const imported = await app.inject({
      method: 'POST',
      url: '/api/admin/catalog/import',
      headers: { 'content-type': body.contentType, cookie },
      payload: body.payload,
    });
    expect(imported.statusCode).toBe(200);
    // An overwrite keeps the catalogue it replaces as a version first.
    expect((await keys(store.storage, 'catalogs/')).length).toBe(2);

    await admin.remove({ id: exported.id });
    expect(await store.storage.exists(key)).toBe(false);
    const gone = await app.inject({
      url: `/api/admin/catalog/versions/${exported.id}/download`,
      headers: { cookie },
    });
    expect(gone.statusCode).toBe(404);
    noLocalFiles();
  });

  it('answers 404 for a version whose file is missing from the bucket', async () => {
    const exported = await store.caller({ admin: ADMIN }).admin.catalog.export({});
    await store.storage.remove(`catalogs/${exported.fileName}`);
    const res = await app.inject({
      url: `/api/admin/catalog/versions/${exported.id}/download`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'The file of this version is missing from storage.' });
  });
});

describe('the demo catalogue on an S3 bucket', () => {
  it('copies its pictures to the bucket, where /media finds them', async () => {
    const { storage } = await s3.bucket();
    const store = await createTestStore({ demo: true, storage });
    const app = await buildTestApp(store);
    try {
      const demo = await keys(storage, 'media/demo/');
      expect(demo.length).toBeGreaterThan(10);
      const res = await app.inject(`/${demo[0]}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toContain('sandbox');
      expect(existsSync(path.join(store.dir, 'media'))).toBe(false);
    } finally {
      await app.close();
      await store.cleanup();
    }
  });
});
