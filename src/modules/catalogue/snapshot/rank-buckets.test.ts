import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WORD_SCORE } from '../full-text.js';
import { bucketsPay, type RankedWord, rankBuckets } from './rank-buckets.js';
import { withScratchMasks } from './scratch-masks.js';
import { countBits, eachSlotDescending, hasBit } from './slot-sets.js';

/** The order slot by slot, as a listing's slots are scored one by one: best score first, then the highest slot. */
function bySlot(mask: Uint32Array, words: RankedWord[]): number[] {
  const scored: Array<[number, number]> = [];
  eachSlotDescending(mask, (slot) => {
    let score = 0;
    for (const w of words)
      score += hasBit(w.title, slot)
        ? WORD_SCORE.title
        : hasBit(w.tags, slot)
          ? WORD_SCORE.tags
          : WORD_SCORE.text;
    scored.push([slot, score]);
  });
  return scored.sort((x, y) => y[1] - x[1] || y[0] - x[0]).map(([slot]) => slot);
}

const bitset = (length: number) =>
  fc.array(fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.constant(0), fc.constant(0xffffffff)), {
    minLength: length,
    maxLength: length,
  });

describe('relevance buckets from bit slices', () => {
  it('orders the mask as scoring slot by slot does, for one to twelve words, page by page', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 12 }).chain((length) =>
          fc.record({
            mask: bitset(length),
            // Word masks a little shorter or longer than the search's (a snapshot grown since).
            words: fc.array(
              fc.record({
                title: bitset(Math.max(0, length + 2)).chain((t) =>
                  fc.integer({ min: -2, max: 2 }).map((d) => t.slice(0, Math.max(0, length + d))),
                ),
                tags: bitset(Math.max(0, length + 2)).chain((t) =>
                  fc.integer({ min: -2, max: 2 }).map((d) => t.slice(0, Math.max(0, length + d))),
                ),
              }),
              { minLength: 1, maxLength: 12 },
            ),
          }),
        ),
        (offset, limit, { mask, words }) => {
          const m = Uint32Array.from(mask);
          const ws = words.map((w) => ({ title: Uint32Array.from(w.title), tags: Uint32Array.from(w.tags) }));
          expect(rankBuckets(m, ws, 0, countBits(m))).toEqual(bySlot(m, ws));
          // In reused scratch memory, as a listing ranks (what an earlier run left there must not count).
          const page = withScratchMasks((take) => rankBuckets(m, ws, offset, limit, take));
          expect(page).toEqual(bySlot(m, ws).slice(offset, offset + limit));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the highest slot first among counts that give the same score', () => {
    // Eleven words: in the maker or tags eleven times (9 * 11 + 11) ties with in the title once (99 + 11).
    const mask = Uint32Array.of(0b11);
    const tagged = { title: Uint32Array.of(0), tags: Uint32Array.of(0b01) };
    const words = [{ title: Uint32Array.of(0b10), tags: Uint32Array.of(0b01) }, ...Array(10).fill(tagged)];
    expect(bySlot(mask, words)).toEqual([1, 0]);
    expect(rankBuckets(mask, words, 0, 2)).toEqual([1, 0]);
  });

  it('pays for one broad word, not for many words over few matches', () => {
    // 100,000 products: 3,125 machine words.
    expect(bucketsPay(1, 3125, 34_648)).toBe(true);
    expect(bucketsPay(2, 3125, 20_000)).toBe(true);
    expect(bucketsPay(1, 3125, 2_000)).toBe(false);
    expect(bucketsPay(9, 3125, 6_250)).toBe(false);
  });

  it('puts title matches before tag matches before the rest, and more words found before fewer', () => {
    const mask = Uint32Array.of(0b11111);
    const w1 = { title: Uint32Array.of(0b00011), tags: Uint32Array.of(0b01100) };
    const w2 = { title: Uint32Array.of(0b00001), tags: Uint32Array.of(0b00110) };
    // Slot 0: title twice; 1: title + tags; 2: tags twice; 3: tags + text; 4: text twice.
    expect(rankBuckets(mask, [w1, w2], 0, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(rankBuckets(mask, [w1, w2], 1, 3)).toEqual([1, 2, 3]);
  });
});
