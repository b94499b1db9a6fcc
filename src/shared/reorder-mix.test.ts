import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ReorderSize, reorderMix } from './reorder-mix.js';

const sold = (...units: number[]): ReorderSize[] => units.map((u) => ({ sold: u }));

describe('reorderMix, counted by hand', () => {
  it('splits exactly when the shares are whole', () => {
    expect(reorderMix(sold(3, 5, 2), 10)).toEqual([3, 5, 2]);
    expect(reorderMix(sold(1, 2, 3, 4), 50)).toEqual([5, 10, 15, 20]);
  });

  it('gives the pieces left to the largest remainders', () => {
    // 20 × 7/31 = 4 r16, 20 × 11/31 = 7 r3, 20 × 13/31 = 8 r12: 19 whole, the 20th to the first (r16).
    expect(reorderMix(sold(7, 11, 13), 20)).toEqual([5, 7, 8]);
    // 7 × 5/8 = 4 r3, 7 × 3/8 = 2 r5, nothing for a size that sold nothing.
    expect(reorderMix(sold(5, 3, 0), 7)).toEqual([4, 3, 0]);
    // 2 × 2/3 = 1 r1, 2 × 1/3 = 0 r2: the remainder decides, not the size that sold more.
    expect(reorderMix(sold(2, 1), 2)).toEqual([1, 1]);
    expect(reorderMix(sold(10, 0), 1)).toEqual([1, 0]);
  });

  it('breaks equal remainders by size order', () => {
    expect(reorderMix(sold(1, 1, 1), 10)).toEqual([4, 3, 3]);
    expect(reorderMix(sold(1, 1, 1), 2)).toEqual([1, 1, 0]);
  });

  it('gives a size that sold out the tie before sizes still in stock', () => {
    const sizes = [{ sold: 1 }, { sold: 1 }, { sold: 1, soldOut: true }];
    expect(reorderMix(sizes, 10)).toEqual([3, 3, 4]);
    expect(reorderMix(sizes, 2)).toEqual([1, 0, 1]);
  });

  it('splits evenly when nothing sold, the odd pieces to the first sizes', () => {
    expect(reorderMix(sold(0, 0, 0, 0), 10)).toEqual([3, 3, 2, 2]);
    expect(reorderMix(sold(0, 0), 0)).toEqual([0, 0]);
    // A size cannot have sold out without selling: the flag does not move an even split.
    expect(reorderMix([{ sold: 0 }, { sold: 0, soldOut: true }], 1)).toEqual([1, 0]);
  });

  it('refuses counts that are not whole and not negative', () => {
    expect(() => reorderMix(sold(1, 2), -1)).toThrow(RangeError);
    expect(() => reorderMix(sold(1, 2), 1.5)).toThrow(RangeError);
    expect(() => reorderMix(sold(-1, 2), 3)).toThrow(RangeError);
    expect(() => reorderMix(sold(Number.NaN), 3)).toThrow(RangeError);
    expect(() => reorderMix([], 3)).toThrow(RangeError);
    expect(reorderMix([], 0)).toEqual([]);
  });

  it('stays exact where floats would not (shares of huge sales)', () => {
    const big = Number.MAX_SAFE_INTEGER;
    expect(reorderMix(sold(big, big, big), 100_000)).toEqual([33_334, 33_333, 33_333]);
  });
});

const sizesArb = fc.array(
  fc.record({ sold: fc.oneof(fc.nat(50), fc.nat(1_000_000)), soldOut: fc.boolean() }),
  { minLength: 1, maxLength: 10 },
);
const piecesArb = fc.oneof(fc.nat(100), fc.nat(100_000));

describe('reorderMix (property-based)', () => {
  it('sums to the pieces, never negative, each size within one piece of its exact share', () => {
    fc.assert(
      fc.property(sizesArb, piecesArb, (sizes, pieces) => {
        const mix = reorderMix(sizes, pieces);
        expect(mix).toHaveLength(sizes.length);
        expect(mix.reduce((s, x) => s + x, 0)).toBe(pieces);
        const total = sizes.reduce((s, x) => s + x.sold, 0);
        mix.forEach((x, i) => {
          expect(Number.isInteger(x) && x >= 0).toBe(true);
          const share = total === 0 ? pieces / sizes.length : (pieces * (sizes[i]?.sold ?? 0)) / total;
          expect(Math.abs(x - share)).toBeLessThan(1);
        });
      }),
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(sizesArb, piecesArb, (sizes, pieces) => {
        expect(reorderMix(structuredClone(sizes), pieces)).toEqual(reorderMix(sizes, pieces));
      }),
    );
  });

  it('never gives a size that sold more fewer pieces than one that sold less', () => {
    fc.assert(
      fc.property(sizesArb, piecesArb, (sizes, pieces) => {
        const mix = reorderMix(sizes, pieces);
        sizes.forEach((a, i) => {
          sizes.forEach((b, j) => {
            if (a.sold > b.sold) expect(mix[i] ?? 0).toBeGreaterThanOrEqual(mix[j] ?? 0);
          });
        });
      }),
    );
  });

  it('never gives a size fewer pieces for selling more (the others unchanged)', () => {
    fc.assert(
      fc.property(
        sizesArb,
        piecesArb,
        fc.nat(),
        fc.integer({ min: 1, max: 1000 }),
        (sizes, pieces, at, more) => {
          const i = at % sizes.length;
          const before = reorderMix(sizes, pieces);
          const after = reorderMix(
            sizes.map((s, k) => (k === i ? { ...s, sold: s.sold + more } : s)),
            pieces,
          );
          expect(after[i] ?? 0).toBeGreaterThanOrEqual(before[i] ?? 0);
        },
      ),
    );
  });

  it('breaks ties by size order: equal sizes, earlier first', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.integer({ min: 1, max: 12 }), piecesArb, (units, count, pieces) => {
        const mix = reorderMix(
          Array.from({ length: count }, () => ({ sold: units })),
          pieces,
        );
        for (let i = 1; i < mix.length; i++) expect(mix[i - 1] ?? 0).toBeGreaterThanOrEqual(mix[i] ?? 0);
        expect((mix[0] ?? 0) - (mix.at(-1) ?? 0)).toBeLessThanOrEqual(1);
      }),
    );
  });
});
