import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { cachedPayload, ResponseCache } from './response-cache.js';

const answer = (body: string) => ({ status: 200, contentType: 'application/json', body });

describe('ResponseCache admitting an answer when asked twice', () => {
  it('keeps an answer at its second request, and forgets the oldest once-asked requests beyond its bound', () => {
    // Two entries: up to eight once-asked requests are remembered.
    const cache = new ResponseCache({ maxEntries: 2, maxBytes: 1 << 20, admitWhenAskedTwice: true });
    cache.set('/a', '1', answer('a'));
    expect(cache.get('/a', '1')).toBeUndefined();
    cache.set('/a', '1', answer('a'));
    expect(cache.get('/a', '1')?.body.toString()).toBe('a');

    for (let i = 0; i < 9; i++) cache.set(`/once${i}`, '1', answer('x'));
    // The first of nine was pushed out of the memory; the last is remembered.
    cache.set('/once0', '1', answer('x'));
    expect(cache.get('/once0', '1')).toBeUndefined();
    cache.set('/once8', '1', answer('x'));
    expect(cache.get('/once8', '1')).toBeDefined();
  });

  it('keeps a first answer others are waiting for, and the next answer of one kept under an older revision', async () => {
    const cache = new ResponseCache({ maxEntries: 10, maxBytes: 1 << 20, admitWhenAskedTwice: true });
    const first = await cache.lookup('/burst', '1');
    const waiting = cache.lookup('/burst', '1');
    cache.set('/burst', '1', answer('b'));
    first.release?.();
    expect((await waiting).hit?.body.toString()).toBe('b');

    // Moved on: the stale copy is dropped, and the first answer of the new revision is kept at once.
    expect(cache.get('/burst', '2')).toBeUndefined();
    cache.set('/burst', '2', answer('b2'));
    expect(cache.get('/burst', '2')?.body.toString()).toBe('b2');
  });

  it('keeps every answer without the option', () => {
    const cache = new ResponseCache({ maxEntries: 10, maxBytes: 1 << 20 });
    cache.set('/a', '1', answer('a'));
    expect(cache.get('/a', '1')).toBeDefined();
  });
});

describe('a kept answer compressed', () => {
  it('holds a buffer sized for its body, not zlib 16 kB chunk, and reads back the same', async () => {
    const body = JSON.stringify(
      Array.from({ length: 300 }, (_, i) => ({
        id: `p${i}`,
        title: `Lawn kurta ${i * 7919}`,
        price: i * 131,
      })),
    );
    expect(body.length).toBeGreaterThan(8192);
    // A large page (280 kB, compressing to 60-80 kB).
    const large = JSON.stringify(
      Array.from({ length: 10_000 }, (_, i) => ({ id: `p${i}`, t: randomBytes(4).toString('hex') })),
    );
    const cache = new ResponseCache({ maxEntries: 10, maxBytes: 1 << 20 });
    const listing = cache.set('/listing', '1', answer(body));
    const page = cache.set('/page', '1', answer(large));
    const app = Fastify();
    app.get('/listing', (req, reply) => cachedPayload(req, reply, listing));
    app.get('/page', (req, reply) => cachedPayload(req, reply, page));
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await app.inject({ url: '/listing', headers: { 'accept-encoding': encoding } });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(decode(res.rawPayload).toString()).toBe(body);
      const kept = listing.encoded[encoding]?.body;
      // What the kept copy holds in memory: at most half the body (from 4 kB), where zlib's default is 16 kB.
      expect(kept?.buffer.byteLength).toBeLessThanOrEqual(Math.max(4096, Math.ceil(body.length / 2)));

      // The large page: a buffer of its own size, or at most zlib's 16 kB, never half of 280 kB.
      const big = await app.inject({ url: '/page', headers: { 'accept-encoding': encoding } });
      expect(decode(big.rawPayload).toString()).toBe(large);
      const held = page.encoded[encoding]?.body;
      expect(held?.buffer.byteLength).toBeLessThanOrEqual(Math.max(held?.length ?? 0, 16_384));
    }
    await app.close();
  });
});
