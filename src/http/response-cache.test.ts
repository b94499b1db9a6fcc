import { describe, expect, it } from 'vitest';
import { ResponseCache } from './response-cache.js';

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
