import { describe, expect, it } from 'vitest';
import { GenerationCache, lruGet, lruSet, SlotGenerationCache } from './lru.js';

describe('a Map as an LRU cache', () => {
  it('drops the least recently used key when it outgrows its bound', () => {
    const map = new Map<string, number>();
    lruSet(map, 'a', 1, 2);
    lruSet(map, 'b', 2, 2);
    expect(lruGet(map, 'a')).toBe(1); // 'a' is now the most recent
    lruSet(map, 'c', 3, 2);
    expect([...map.keys()]).toEqual(['a', 'c']);
    lruSet(map, 'a', 4, 2); // replacing a key makes it the most recent too
    lruSet(map, 'd', 5, 2);
    expect([...map.entries()]).toEqual([
      ['a', 4],
      ['d', 5],
    ]);
    expect(lruGet(map, 'missing')).toBeUndefined();
  });
});

/** The two caches' shared rule, asked of both with whole-number keys (slots 1-1000). */
type Generations = {
  get(key: number): number | undefined;
  has(key: number): boolean;
  set(key: number, value: number): void;
};

describe.each([
  ['by key, in Maps', (max: number): Generations => new GenerationCache<number, number>(max)],
  ['by slot, in arrays', (max: number): Generations => new SlotGenerationCache<number>(max, 1000)],
])('a cache of two generations %s', (_, cacheOf) => {
  it('keeps what was set or used within the last half of its bound, and never more than its bound', () => {
    const cache = cacheOf(4);
    cache.set(1, 1);
    cache.set(2, 2); // young is full, and stays young until another key comes
    expect(cache.get(1)).toBe(1);
    cache.set(3, 3); // a third key: 1 and 2 become old, 3 is young
    expect(cache.has(2)).toBe(true);
    expect(cache.get(1)).toBe(1); // used: young again, beside 3
    cache.set(4, 4); // young was full: 3 and 1 become old, 2 (unused since) is dropped
    expect(cache.has(2)).toBe(false);
    expect(cache.get(3)).toBe(3);
    cache.set(5, 5);
    cache.set(6, 6);
    // 1 was last used before 4, 3, 5 and 6: more than half the bound ago.
    expect(cache.has(1)).toBe(false);
    expect(cache.get(6)).toBe(6);
    expect(cache.get(999)).toBeUndefined();
    cache.set(6, 7); // a key set again is replaced, not counted twice
    expect(cache.get(6)).toBe(7);
    expect(cache.get(5)).toBe(5);
  });

  it('keeps a set of half its bound young: used again and again, it outlasts half the bound of new keys', () => {
    // Turning over when young became full sent such a set to old at once, and every use moved a key back:
    // a 10,000-product catalogue's cards, in a cache of 20,000, paid a Map insert per card.
    const cache = cacheOf(4);
    cache.set(1, 1);
    cache.set(2, 2);
    for (let i = 0; i < 3; i++) expect([cache.get(1), cache.get(2)]).toEqual([1, 2]);
    cache.set(3, 3);
    cache.set(4, 4);
    for (const key of [1, 2, 3, 4]) expect(cache.has(key)).toBe(true);
  });

  it('holds every key of a set no larger than half its bound, however it is used', () => {
    const cache = cacheOf(200);
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 100; i++) {
        const key = (i * 37 + round * 11) % 100;
        if (cache.get(key) === undefined) {
          if (round > 0) throw new Error(`key ${key} was dropped in round ${round}`);
          cache.set(key, key);
        }
      }
    }
    for (let i = 0; i < 100; i++) expect(cache.has(i)).toBe(true);
  });

  it('never holds more than its bound, an odd one too', () => {
    const held = (cache: Generations, keys: number) => {
      let n = 0;
      for (let i = 0; i < keys; i++) if (cache.has(i)) n++;
      return n;
    };
    const even = cacheOf(10);
    for (let i = 0; i < 1000; i++) even.set(i, i);
    expect(held(even, 1000)).toBeLessThanOrEqual(10);
    expect(held(even, 1000)).toBeGreaterThanOrEqual(5);
    const odd = cacheOf(5);
    for (let i = 0; i < 21; i++) odd.set(i, i);
    expect(held(odd, 21)).toBeLessThanOrEqual(5);
  });

  it('drops a key unused while more than half its bound of others came', () => {
    const cache = cacheOf(10);
    cache.set(100, 100);
    for (let i = 0; i < 10; i++) cache.set(i, i);
    expect(cache.has(100)).toBe(false);
  });
});
