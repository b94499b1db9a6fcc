import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageOf } from './slot-orders.js';
import { countBits, setBit } from './slot-sets.js';

/** The page as the walk finds it: the order read from the start, the mask's slots kept. */
function walked(order: Uint32Array, mask: Uint32Array, offset: number, limit: number): number[] {
  return [...order]
    .filter((slot) => (((mask[slot >>> 5] ?? 0) >>> (slot & 31)) & 1) === 1)
    .slice(offset, offset + limit);
}

/** A shuffled order of every slot below `size`, from the seed (the snapshot's orders are permutations). */
function permutation(size: number, seed: number): Uint32Array {
  const order = Uint32Array.from({ length: size }, (_, i) => i);
  let s = seed >>> 0 || 1;
  for (let i = size - 1; i > 0; i--) {
    s = Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) >>> 0;
    const j = s % (i + 1);
    [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
  }
  return order;
}

describe('pageOf', () => {
  it('gives the walk’s page for sparse and dense masks alike, at every offset', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.array(fc.nat(), { maxLength: 200 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 48 }),
        (size, seed, picks, offset, limit) => {
          const order = permutation(size, seed);
          // Room for the bits past the last slot, as a snapshot's masks have (capacity ≥ size).
          const mask = new Uint32Array((size >>> 5) + 2);
          for (const p of picks) setBit(mask, p % size);
          const count = countBits(mask);
          expect(pageOf(order, mask, offset, limit, count)).toEqual(walked(order, mask, offset, limit));
          expect(pageOf(order, mask, offset, limit)).toEqual(walked(order, mask, offset, limit));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ranks a sparse mask of a large order instead of walking it, with the same page', () => {
    const order = permutation(100_000, 7);
    const mask = new Uint32Array(100_000 / 32);
    // Twelve matches: fewer than a page, so the walk reads all 100,000 entries.
    for (const slot of [5, 77, 1_000, 4_321, 10_000, 33_333, 50_000, 64_000, 77_777, 88_888, 99_000, 99_999])
      setBit(mask, slot);
    expect(pageOf(order, mask, 0, 24, 12)).toEqual(walked(order, mask, 0, 24));
    expect(pageOf(order, mask, 10, 24, 12)).toEqual(walked(order, mask, 10, 24));
    expect(pageOf(order, mask, 12, 24, 12)).toEqual([]);
  });
});
