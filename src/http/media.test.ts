import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FileStorage } from '../storage/file-storage.js';
import { startS3Server, type TestS3Server } from '../test-support/s3.js';
import { buildTestApp, createTestStore, type TestStore } from '../test-support/test-store.js';

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${'<rect width="1" height="1"/>'.repeat(200)}</svg>`;
/** Bigger than what /media reads whole (256 KiB), so it is streamed from the storage. */
const video = Buffer.from(Array.from({ length: 700 * 1024 }, (_, i) => (i * 7) % 251));
const photo = Buffer.from('not really a webp, but bytes all the same');

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});

/** /media answers the same from either storage (decision 0016). */
const storages: { name: string; storage(): Promise<FileStorage | undefined> }[] = [
  { name: 'local folder', storage: async () => undefined },
  { name: 'S3 bucket', storage: async () => (await s3.bucket()).storage },
];

describe.each(storages)('media files from a $name', (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  beforeEach(async () => {
    store = await createTestStore({ storage: await kind.storage() });
    await store.storage.put('media/demo/art.svg', Buffer.from(svg));
    await store.storage.put('media/uploads/abc-640.webp', photo);
    await store.storage.put('media/uploads/def.mp4', video);
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
    expect(plain.headers.vary).toContain('accept-encoding');
    expect(plain.body).toBe(svg);
  });

  it('sends an upload with its type, length, validators and a year of immutable caching', async () => {
    const res = await app.inject('/media/uploads/abc-640.webp');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(photo);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['content-length']).toBe(String(photo.length));
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(new Date(String(res.headers['last-modified'])).getTime()).not.toBeNaN();
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['content-disposition']).toBeUndefined();

    const streamed = await app.inject('/media/uploads/def.mp4');
    expect(streamed.statusCode).toBe(200);
    expect(streamed.rawPayload.equals(video)).toBe(true);
    expect(streamed.headers['content-type']).toBe('video/mp4');
    expect(streamed.headers['content-length']).toBe(String(video.length));
    expect(streamed.headers['content-disposition']).toBe('attachment');
  });

  it('answers 304 to a browser that has the file, by ETag or by date, and 200 once it changed', async () => {
    const first = await app.inject('/media/uploads/abc-640.webp');
    const etag = String(first.headers.etag);
    const byTag = await app.inject({
      url: '/media/uploads/abc-640.webp',
      headers: { 'if-none-match': etag },
    });
    expect(byTag.statusCode).toBe(304);
    expect(byTag.rawPayload.length).toBe(0);
    expect(byTag.headers.etag).toBe(etag);
    expect(byTag.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const listed = await app.inject({
      url: '/media/uploads/abc-640.webp',
      headers: { 'if-none-match': `"other", W/${etag}` },
    });
    expect(listed.statusCode).toBe(304);
    const byDate = await app.inject({
      url: '/media/uploads/abc-640.webp',
      headers: { 'if-modified-since': String(first.headers['last-modified']) },
    });
    expect(byDate.statusCode).toBe(304);
    const earlier = new Date(new Date(String(first.headers['last-modified'])).getTime() - 60_000);
    const changedSince = await app.inject({
      url: '/media/uploads/abc-640.webp',
      headers: { 'if-modified-since': earlier.toUTCString() },
    });
    expect(changedSince.statusCode).toBe(200);

    // The demo's files can be replaced in place (uploads never are): the old ETag then gets the new file.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store.storage.put('media/demo/guide.pdf', Buffer.from('%PDF-1.4 first'));
    const old = String((await app.inject('/media/demo/guide.pdf')).headers.etag);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store.storage.put('media/demo/guide.pdf', Buffer.from('%PDF-1.4 second'));
    const changed = await app.inject({ url: '/media/demo/guide.pdf', headers: { 'if-none-match': old } });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toBe('%PDF-1.4 second');
    expect(changed.headers.etag).not.toBe(old);
  });

  it('sends the byte range a player asks for, as 206 with Content-Range', async () => {
    const size = video.length;
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=0-', 0, size - 1],
      ['bytes=1000-1999', 1000, 1999],
      ['bytes=-500', size - 500, size - 1],
      [`bytes=${size - 10}-${size + 5000}`, size - 10, size - 1],
      ['bytes=300000-', 300000, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await app.inject({ url: '/media/uploads/def.mp4', headers: { range } });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers['content-length'], range).toBe(String(end - start + 1));
      expect(res.rawPayload.equals(video.subarray(start, end + 1)), range).toBe(true);
    }
    const small = await app.inject({ url: '/media/uploads/abc-640.webp', headers: { range: 'bytes=4-9' } });
    expect(small.statusCode).toBe(206);
    expect(small.body).toBe(photo.subarray(4, 10).toString());
  });

  it('answers 416 to a range past the end, and the whole file to ranges it does not serve', async () => {
    const size = video.length;
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
      const res = await app.inject({ url: '/media/uploads/def.mp4', headers: { range } });
      expect(res.statusCode, range).toBe(416);
      expect(res.headers['content-range'], range).toBe(`bytes */${size}`);
    }
    for (const range of ['bytes=0-1,5-6', 'items=0-5', 'bytes=9-2', 'bytes=abc', 'bytes=-']) {
      const res = await app.inject({ url: '/media/uploads/def.mp4', headers: { range } });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.length, range).toBe(size);
    }
  });

  it('honours If-Range: a range of the same file, the whole file when it changed', async () => {
    const { etag } = (await app.inject('/media/uploads/def.mp4')).headers;
    const same = await app.inject({
      url: '/media/uploads/def.mp4',
      headers: { range: 'bytes=0-9', 'if-range': String(etag) },
    });
    expect(same.statusCode).toBe(206);
    const changed = await app.inject({
      url: '/media/uploads/def.mp4',
      headers: { range: 'bytes=0-9', 'if-range': '"something-else"' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.length).toBe(video.length);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/media/uploads/def.mp4' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(video.length));
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers 404 for a missing file', async () => {
    expect((await app.inject('/media/uploads/gone.webp')).statusCode).toBe(404);
    expect((await app.inject('/media/')).statusCode).toBe(404);
    expect((await app.inject('/media/uploads')).statusCode).toBe(404);
  });

  it('never reads outside the media folder, whatever the path says', async () => {
    await store.storage.put('secret.svg', Buffer.from(svg));
    await store.storage.put('catalogs/secret.yaml', Buffer.from('secret: yes'));
    for (const url of [
      '/media/../secret.svg',
      '/media/%2e%2e/secret.svg',
      '/media/demo/..%2f..%2fsecret.svg',
      '/media/..%2fcatalogs%2fsecret.yaml',
      '/media/%2fsecret.svg',
      '/media//secret.svg',
      '/media/demo/%5c..%5c..%5csecret.svg',
      '/media/.%2e/catalogs/secret.yaml',
      '/media/demo/art.svg%00.png',
      '/media/.hidden',
      `/media/${'a'.repeat(5000)}.svg`,
      `/media/${'a/'.repeat(400)}x.svg`,
    ]) {
      for (const headers of [{ 'accept-encoding': 'br' }, {}]) {
        const res = await app.inject({ url, headers });
        expect(res.statusCode, url).toBe(404);
        expect(res.body, url).not.toContain('secret: yes');
        expect(res.body, url).not.toContain('<rect');
      }
    }
  });
});
