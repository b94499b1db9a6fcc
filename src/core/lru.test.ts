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

describe('a cache of two generations', () => {
  it('keeps what was set or used within the last half of its bound, and never more than its bound', () => {
    const cache = new GenerationCache<string, number>(4);
    cache.set('a', 1);
    cache.set('b', 2); // young is full, and stays young until another key comes
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3); // a third key: a and b become old, c is young
    expect(cache.has('b')).toBe(true);
    expect(cache.get('a')).toBe(1); // used: young again, beside c
    cache.set('d', 4); // young was full: c and a become old, b (unused since) is dropped
    expect(cache.has('b')).toBe(false);
    expect(cache.get('c')).toBe(3);
    cache.set('e', 5);
    cache.set('f', 6);
    // a was last used before d, c, e and f: more than half the bound ago.
    expect(cache.has('a')).toBe(false);
    expect(cache.get('f')).toBe(6);
    expect(cache.get('missing')).toBeUndefined();
  });

  it('keeps a set of half its bound young: used again and again, it outlasts half the bound of new keys', () => {
    // Turning over when young became full sent such a set to old at once, and every use moved a key back:
    // a 10,000-product catalogue's cards, in a cache of 20,000, paid a Map insert per card.
    const cache = new GenerationCache<string, number>(4);
    cache.set('a', 1);
    cache.set('b', 2);
    for (let i = 0; i < 3; i++) expect([cache.get('a'), cache.get('b')]).toEqual([1, 2]);
    cache.set('c', 3);
    cache.set('d', 4);
    for (const key of ['a', 'b', 'c', 'd']) expect(cache.has(key)).toBe(true);
  });

  it('holds every key of a set no larger than half its bound, however it is used', () => {
    const cache = new GenerationCache<number, number>(200);
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

  it('holds no more than an odd bound', () => {
    const cache = new GenerationCache<number, number>(5);
    for (let i = 0; i < 21; i++) cache.set(i, i);
    let held = 0;
    for (let i = 0; i < 21; i++) if (cache.has(i)) held++;
    expect(held).toBeLessThanOrEqual(5);
  });

  it('drops a key unused while more than half its bound of others came', () => {
    const cache = new GenerationCache<number, number>(10);
    cache.set(-1, -1);
    for (let i = 0; i < 10; i++) cache.set(i, i);
    expect(cache.has(-1)).toBe(false);
  });
});

describe('a cache of two generations for slots', () => {
  it('keeps what was set or used within the last half of its bound, as the Map one does', () => {
    const cache = new SlotGenerationCache<string>(4, 10);
    cache.set(1, 'a');
    cache.set(2, 'b');
    expect(cache.get(1)).toBe('a');
    cache.set(3, 'c'); // 1 and 2 become old, 3 is young
    expect(cache.get(1)).toBe('a'); // used: young again, beside 3
    cache.set(4, 'd'); // 3 and 1 become old, 2 (unused since) is dropped
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(3)).toBe('c');
    cache.set(5, 'e');
    cache.set(6, 'f');
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(6)).toBe('f');
    cache.set(6, 'g'); // a slot set again is replaced, not counted twice
    expect(cache.get(6)).toBe('g');
    expect(cache.get(5)).toBe('e');
  });

  it('holds every slot of a set no larger than half its bound, however it is used', () => {
    const cache = new SlotGenerationCache<number>(200, 100);
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 100; i++) {
        const slot = (i * 37 + round * 11) % 100;
        if (cache.get(slot) === undefined) {
          if (round > 0) throw new Error(`slot ${slot} was dropped in round ${round}`);
          cache.set(slot, slot);
        }
      }
    }
  });

  it('keeps a set of half its bound young: used again and again, it outlasts half the bound of new keys', () => {
    const cache = new SlotGenerationCache<string>(4, 10);
    cache.set(1, 'a');
    cache.set(2, 'b');
    for (let i = 0; i < 3; i++) expect([cache.get(1), cache.get(2)]).toEqual(['a', 'b']);
    cache.set(3, 'c');
    cache.set(4, 'd');
    for (const slot of [1, 2, 3, 4]) expect(cache.has(slot)).toBe(true);
  });

  it('never holds more than its bound', () => {
    const cache = new SlotGenerationCache<number>(10, 1000);
    for (let i = 0; i < 1000; i++) cache.set(i, i);
    let held = 0;
    for (let i = 0; i < 1000; i++) if (cache.has(i)) held++;
    expect(held).toBeLessThanOrEqual(10);
    expect(held).toBeGreaterThanOrEqual(5);
    const odd = new SlotGenerationCache<number>(5, 100);
    for (let i = 0; i < 21; i++) odd.set(i, i);
    let oddHeld = 0;
    for (let i = 0; i < 21; i++) if (odd.has(i)) oddHeld++;
    expect(oddHeld).toBeLessThanOrEqual(5);
  });
});
