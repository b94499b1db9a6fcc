import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminMediaItem } from '../modules/media/media.repository.js';
import { insertProducts } from '../test-support/fixtures.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  type TestStore,
} from '../test-support/test-store.js';
import { registerMediaUploads } from './media-uploads.js';

const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';

type Upload = { name: string; data: Uint8Array; type?: string };

/** A multipart body exactly as a browser's FormData would send it. */
async function multipartBody(files: Upload[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) {
    form.append(
      'files',
      new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }),
      f.name,
    );
  }
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    contentType: res.headers.get('content-type') ?? '',
  };
}

const png = (width = 40, height = 30) =>
  sharp({ create: { width, height, channels: 3, background: '#a33' } })
    .png()
    .toBuffer();

describe('POST /api/admin/products/:productId/media', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let cookie: string;

  beforeEach(async () => {
    store = await createTestStore();
    await createAdmin(store, EMAIL, PASSWORD);
    await insertProducts(store.handle.db, [{ id: 'p1' }, { id: 'p2' }]);
    app = await buildTestApp(store);
    // Until app.ts registers the route itself; afterwards this call is a no-op.
    await registerMediaUploads(app, {
      db: store.handle.db,
      storage: store.storage,
      clock: { now: () => new Date('2026-11-22T10:00:00.000Z') },
      config: store.config,
    });
    cookie = await loginCookie(app, EMAIL, PASSWORD);
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  async function upload(files: Upload[], opts: { productId?: string; cookie?: string | null } = {}) {
    const body = await multipartBody(files);
    const headers: Record<string, string> = { 'content-type': body.contentType };
    const c = opts.cookie === undefined ? cookie : opts.cookie;
    if (c) headers.cookie = c;
    return app.inject({
      method: 'POST',
      url: `/api/admin/products/${opts.productId ?? 'p1'}/media`,
      headers,
      payload: body.payload,
    });
  }

  const uploadsDir = () => path.join(store.dir, 'media', 'uploads');
  const storedFiles = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()) : []);
  const mediaRows = () => store.handle.db.selectFrom('media').selectAll().execute();

  async function expectNothingStored() {
    expect(storedFiles()).toEqual([]);
    expect(await mediaRows()).toEqual([]);
  }

  it('takes a PNG named .jpg by its content and stores WebP variants under a generated name', async () => {
    const res = await upload([{ name: 'photo.jpg', data: await png(800, 600), type: 'image/jpeg' }]);
    expect(res.statusCode).toBe(201);
    const [item] = (res.json() as { items: AdminMediaItem[] }).items;
    expect(item).toMatchObject({
      productId: 'p1',
      fileName: 'photo.jpg',
      mediaType: 'image',
      uploaded: true,
      contentType: 'image/webp',
      width: 800,
      height: 600,
      displayOrder: 0,
      altText: null,
    });
    expect(item?.url).toMatch(/^\/media\/uploads\/[0-9a-f]{32}-800\.webp$/);
    expect(item?.variants.filter((v) => v.format === 'webp').map((v) => v.width)).toEqual([320, 640, 800]);
    expect(storedFiles().every((f) => !f.includes('photo'))).toBe(true);
    // Recorded in the admin audit: who, from where, what and on which product (decision 0031).
    const audit = await store.handle.db.selectFrom('admin_audit').selectAll().execute();
    expect(audit).toEqual([
      expect.objectContaining({
        admin_email: EMAIL,
        ip: '127.0.0.1',
        action: 'POST /api/admin/products/:productId/media',
        target: 'p1',
      }),
    ]);

    // Served from /media with a long cache life, nosniff and the sandbox CSP.
    const served = await app.inject({ url: item?.url ?? '' });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.headers['content-disposition']).toBeUndefined();
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.width).toBe(800);
  });

  it('strips EXIF from a real JPEG, applies its orientation and keeps the web variants', async () => {
    // 1200x900 stored with orientation 6 (rotate 90° to display): upright it is 900 wide and 1200 high.
    const jpeg = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#357' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret-gps' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const before = await sharp(jpeg).metadata();
    expect(before.exif?.toString('latin1')).toContain('secret-gps');
    expect(before.orientation).toBe(6);

    const res = await upload([{ name: 'IMG_0001.JPG', data: jpeg }]);
    expect(res.statusCode).toBe(201);
    const [item] = (res.json() as { items: AdminMediaItem[] }).items;
    expect(item).toMatchObject({ width: 900, height: 1200, mediaType: 'image' });
    expect(item?.variants.filter((v) => v.format === 'webp').map((v) => v.width)).toEqual([320, 640, 900]);
    for (const file of storedFiles()) {
      const bytes = await store.storage.read(`media/uploads/${file}`);
      expect(bytes.toString('latin1')).not.toContain('secret-gps');
      const meta = await sharp(bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation ?? 1).toBe(1);
      expect(meta.height).toBeGreaterThan(meta.width);
    }
  });

  it('never enlarges: a large photo gets 320, 640, 1024 and 1600 wide variants and the main URL is 1600', async () => {
    const big = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    const res = await upload([{ name: 'big.jpg', data: big }]);
    const [item] = (res.json() as { items: AdminMediaItem[] }).items;
    expect(item?.variants.filter((v) => v.format === 'webp').map((v) => v.width)).toEqual([
      320, 640, 1024, 1600,
    ]);
    expect(item?.url).toMatch(/-1600\.webp$/);
    expect(item).toMatchObject({ width: 1600, height: 1067 });
  });

  it('stores pdf, text and video as downloads with their detected type', async () => {
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const txt = Buffer.from('Care: hand wash cold. Lawn cotton — 100%.\n');
    const mp4 = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from('ftypisom'),
      Buffer.from([0, 0, 2, 0]),
      Buffer.from('isomiso2'),
      Buffer.alloc(64),
    ]);
    const res = await upload([
      { name: 'size guide.pdf', data: pdf },
      { name: 'care.txt', data: txt },
      { name: 'clip.mov', data: mp4 },
    ]);
    expect(res.statusCode).toBe(201);
    const items = (res.json() as { items: AdminMediaItem[] }).items;
    expect(items.map((i) => [i.mediaType, i.contentType, i.fileName])).toEqual([
      ['pdf', 'application/pdf', 'size guide.pdf'],
      ['txt', 'text/plain; charset=utf-8', 'care.txt'],
      ['video', 'video/mp4', 'clip.mov'],
    ]);
    expect(items.map((i) => i.url.split('.').pop())).toEqual(['pdf', 'txt', 'mp4']);
    expect(items.map((i) => i.displayOrder)).toEqual([0, 1, 2]);
    for (const item of items) {
      const served = await app.inject({ url: item.url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-disposition']).toBe('attachment');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  const refusals: [string, () => Promise<Upload[]>, number, RegExp][] = [
    [
      'HTML named .png',
      async () => [{ name: 'cute.png', data: Buffer.from('<!doctype html><script>alert(1)</script>') }],
      415,
      /"cute\.png" was refused: SVG, HTML and other markup files are not allowed/,
    ],
    [
      'an ELF binary named .png',
      async () => [
        {
          name: 'tool.png',
          data: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]),
        },
      ],
      415,
      /"tool\.png" is not a supported file type/,
    ],
    [
      'an SVG with script',
      async () => [
        {
          name: 'logo.svg',
          data: Buffer.from(
            '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
          ),
          type: 'image/svg+xml',
        },
      ],
      415,
      /SVG, HTML and other markup files are not allowed/,
    ],
    [
      'a zero-byte file',
      async () => [{ name: 'empty.jpg', data: Buffer.alloc(0) }],
      400,
      /"empty\.jpg" is empty/,
    ],
    [
      'an image over 15 MB',
      async () => [
        {
          name: 'huge.png',
          data: Buffer.concat([(await png()).subarray(0, 16), Buffer.alloc(15 * 1024 * 1024)]),
        },
      ],
      413,
      /"huge\.png" is too large: images can be at most 15 MB/,
    ],
    [
      'a text file over 10 MB',
      async () => [{ name: 'notes.txt', data: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') }],
      413,
      /"notes\.txt" is too large: text files can be at most 10 MB/,
    ],
    [
      'a ../../etc/passwd file name',
      async () => [{ name: '../../etc/passwd', data: Buffer.from('root:x:0:0:root:/root:/bin/bash\n') }],
      400,
      /File names must be plain names: no folders/,
    ],
    [
      'a PNG signature with garbage after it',
      async () => [
        { name: 'broken.png', data: Buffer.concat([(await png()).subarray(0, 8), Buffer.alloc(200, 7)]) },
      ],
      415,
      /"broken\.png" could not be read as an image/,
    ],
    [
      'Matroska video (not WebM)',
      async () => [
        {
          name: 'film.webm',
          data: Buffer.concat([
            Buffer.from([0x1a, 0x45, 0xdf, 0xa3]),
            Buffer.from('\x42\x82\x88matroska'),
            Buffer.alloc(40),
          ]),
        },
      ],
      415,
      /is not a supported file type/,
    ],
  ];

  it.each(refusals)(
    'refuses %s with a clear message and stores nothing',
    async (_label, files, status, message) => {
      const res = await upload(await files());
      expect(res.statusCode).toBe(status);
      expect((res.json() as { message: string }).message).toMatch(message);
      await expectNothingStored();
    },
  );

  it('keeps nothing of a batch when one file in it is refused', async () => {
    const res = await upload([
      { name: 'a.png', data: await png() },
      { name: 'b.png', data: await png() },
      { name: 'evil.png', data: Buffer.from('<html><body>hi</body></html>') },
    ]);
    expect(res.statusCode).toBe(415);
    await expectNothingStored();
  });

  it('refuses too many parts', async () => {
    const fields = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, 'x']));
    const body = await multipartBody([{ name: 'a.png', data: await png() }], fields);
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/products/p1/media',
      headers: { cookie, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(413);
    expect((res.json() as { message: string }).message).toMatch(/Too many (parts|form fields) in one upload/);
    await expectNothingStored();
  });

  it('refuses more files than one request may carry', async () => {
    const one = await png(8, 8);
    const files = Array.from({ length: 21 }, (_, i) => ({ name: `${i}.png`, data: one }));
    const res = await upload(files);
    expect(res.statusCode).toBe(413);
    expect((res.json() as { message: string }).message).toBe('Too many files: at most 20 in one upload.');
    await expectNothingStored();
  });

  it('refuses an upload cut off in the middle and keeps nothing', async () => {
    const body = await multipartBody([
      { name: 'a.png', data: await png() },
      { name: 'b.pdf', data: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(50_000, 32)]) },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/products/p1/media',
      headers: { cookie, 'content-type': body.contentType },
      payload: body.payload.subarray(0, body.payload.length - 20_000),
    });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { message: string }).message).toMatch(/incomplete|interrupted/);
    await expectNothingStored();
  });

  it('answers 401 without a session and 404 for an unknown product', async () => {
    const anonymous = await upload([{ name: 'a.png', data: await png() }], { cookie: null });
    expect(anonymous.statusCode).toBe(401);
    expect((anonymous.json() as { message: string }).message).toBe('Please sign in');
    const value = cookie.slice('store_session='.length);
    const flipped = `store_session=${value.slice(0, 10)}${value[10] === 'A' ? 'B' : 'A'}${value.slice(11)}`;
    const tampered = await upload([{ name: 'a.png', data: await png() }], { cookie: flipped });
    expect(tampered.statusCode).toBe(401);
    const missing = await upload([{ name: 'a.png', data: await png() }], { productId: 'nope' });
    expect(missing.statusCode).toBe(404);
    await expectNothingStored();
  });

  it('refuses a cross-site upload and a JSON body', async () => {
    const body = await multipartBody([{ name: 'a.png', data: await png() }]);
    const crossSite = await app.inject({
      method: 'POST',
      url: '/api/admin/products/p1/media',
      headers: { cookie, 'content-type': body.contentType, origin: 'https://evil.example' },
      payload: body.payload,
    });
    expect(crossSite.statusCode).toBe(403);
    const json = await app.inject({
      method: 'POST',
      url: '/api/admin/products/p1/media',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(json.statusCode).toBe(415);
    await expectNothingStored();
  });

  it('does not accept multipart bodies on other routes', async () => {
    const body = await multipartBody([{ name: 'a.png', data: await png() }]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/trpc/admin.account.profile',
      headers: { cookie, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(415);
  });

  it('holds the 20-media limit: more files than free slots are refused', async () => {
    const one = await png(8, 8);
    const first = await upload(Array.from({ length: 18 }, (_, i) => ({ name: `${i}.png`, data: one })));
    expect(first.statusCode).toBe(201);
    const tooMany = await upload(Array.from({ length: 3 }, (_, i) => ({ name: `x${i}.png`, data: one })));
    expect(tooMany.statusCode).toBe(400);
    expect((tooMany.json() as { message: string }).message).toBe(
      'Maximum 20 media items allowed per product: this product has room for 2 more.',
    );
    expect((await mediaRows()).length).toBe(18);
    const fits = await upload([
      { name: 'last.png', data: one },
      { name: 'last2.png', data: one },
    ]);
    expect(fits.statusCode).toBe(201);
    const full = await upload([{ name: 'over.png', data: one }]);
    expect(full.statusCode).toBe(409);
    expect((full.json() as { message: string }).message).toBe('Maximum 20 media items allowed per product');
    expect((await mediaRows()).length).toBe(20);
  });

  it('never goes past 20 media under concurrent uploads, and leaves no files of the refused ones', async () => {
    const one = await png(8, 8);
    const batch = (tag: string) =>
      Array.from({ length: 3 }, (_, i) => ({ name: `${tag}${i}.png`, data: one }));
    const results = await Promise.all(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map((t) => upload(batch(t))),
    );
    const ok = results.filter((r) => r.statusCode === 201);
    expect(ok.length).toBe(6);
    for (const r of results.filter((x) => x.statusCode !== 201)) {
      expect([400, 409]).toContain(r.statusCode);
      expect((r.json() as { message: string }).message).toMatch(
        /^Maximum 20 media items allowed per product/,
      );
    }
    const rows = await mediaRows();
    expect(rows.length).toBe(18);
    expect(rows.length).toBeLessThanOrEqual(20);
    // Every stored file belongs to a row: the refused uploads left nothing behind.
    const owned = new Set(
      rows.flatMap((r) => (JSON.parse(r.variants) as { storageKey: string }[]).map((v) => v.storageKey)),
    );
    expect(
      storedFiles()
        .map((f) => `media/uploads/${f}`)
        .sort(),
    ).toEqual([...owned].sort());
  });
});
