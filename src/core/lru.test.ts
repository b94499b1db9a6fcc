import { describe, expect, it } from 'vitest';
import { lruGet, lruSet } from './lru.js';

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
