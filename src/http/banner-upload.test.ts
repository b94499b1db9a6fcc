import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  type TestStore,
} from '../test-support/test-store.js';

async function multipart(name: string, data: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), name);
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    contentType: res.headers.get('content-type') ?? '',
  };
}

describe('POST /api/admin/settings/banner-image', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let cookie: string;
  beforeEach(async () => {
    store = await createTestStore();
    await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    app = await buildTestApp(store);
    cookie = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  const upload = async (name: string, data: Uint8Array, withCookie = true) => {
    const body = await multipart(name, data);
    return app.inject({
      method: 'POST',
      url: '/api/admin/settings/banner-image',
      headers: { 'content-type': body.contentType, ...(withCookie ? { cookie } : {}) },
      payload: body.payload,
    });
  };

  it('stores an uploaded picture as a metadata-free WebP under a generated name and answers its URL', async () => {
    const jpeg = await sharp({ create: { width: 2000, height: 680, channels: 3, background: '#702' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-owner' } } })
      .toBuffer();
    const res = await upload('../../etc/banner.jpg', jpeg);
    expect(res.statusCode).toBe(201);
    const { url } = res.json() as { url: string };
    expect(url).toMatch(/^\/media\/uploads\/banner-[0-9a-f]{24}\.webp$/);
    const stored = await store.storage.read(url.slice(1));
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(1600);
    expect(meta.exif).toBeUndefined();
    expect((await app.inject(url)).statusCode).toBe(200);
  });

  it('refuses anything that is not an image, and callers who are not signed in', async () => {
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    expect((await upload('banner.png', svg)).statusCode).toBe(415);
    expect((await upload('banner.png', new Uint8Array())).statusCode).toBe(400);
    expect(
      (
        await upload(
          'banner.png',
          await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
            .png()
            .toBuffer(),
          false,
        )
      ).statusCode,
    ).toBe(401);
  });
});
