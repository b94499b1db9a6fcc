import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, createTestStore, type TestStore } from '../test-support/test-store.js';

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${'<rect width="1" height="1"/>'.repeat(200)}</svg>`;

describe('media files', () => {
  let store: TestStore;
  let app: FastifyInstance;
  beforeEach(async () => {
    store = await createTestStore();
    mkdirSync(path.join(store.dir, 'media', 'demo'), { recursive: true });
    writeFileSync(path.join(store.dir, 'media', 'demo', 'art.svg'), svg);
    app = await buildTestApp(store);
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  it('sends SVG drawings compressed to browsers that accept it, sandboxed like every media file', async () => {
    const br = await app.inject({ url: '/media/demo/art.svg', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('image/svg+xml');
    expect(br.rawPayload.length).toBeLessThan(svg.length / 4);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(svg);
    expect(br.headers['content-security-policy']).toContain('sandbox');
    expect(br.headers['x-content-type-options']).toBe('nosniff');
    expect(br.headers['cache-control']).toBe('public, max-age=86400');
    expect(
      (
        await app.inject({
          url: '/media/demo/art.svg',
          headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) },
        })
      ).statusCode,
    ).toBe(304);

    const plain = await app.inject({ url: '/media/demo/art.svg' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(svg);
  });

  it('never reads outside the media folder, whatever the path says', async () => {
    writeFileSync(path.join(store.dir, 'secret.svg'), svg);
    for (const url of [
      '/media/../secret.svg',
      '/media/%2e%2e/secret.svg',
      '/media/demo/..%2f..%2fsecret.svg',
    ]) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).not.toBe(200);
    }
  });
});
