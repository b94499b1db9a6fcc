import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WORD_SCORE } from './full-text.js';
import { RANK_BUCKETS_MAX_WORDS, type RankedWord, rankBuckets } from './rank-buckets.js';
import { countBits, eachSlotDescending, hasBit } from './slot-sets.js';

/** The order slot by slot, as relevanceOrder scored it: best score first, then the highest slot. */
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
  it('orders the mask as scoring slot by slot does, for one to nine words', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }).chain((length) =>
          fc.record({
            mask: bitset(length),
            words: fc.array(fc.record({ title: bitset(length), tags: bitset(length) }), {
              minLength: 1,
              maxLength: RANK_BUCKETS_MAX_WORDS,
            }),
          }),
        ),
        ({ mask, words }) => {
          const m = Uint32Array.from(mask);
          const ws = words.map((w) => ({ title: Uint32Array.from(w.title), tags: Uint32Array.from(w.tags) }));
          expect([...rankBuckets(m, ws, countBits(m))]).toEqual(bySlot(m, ws));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('puts title matches before tag matches before the rest, and more words found before fewer', () => {
    const mask = Uint32Array.of(0b11111);
    const w1 = { title: Uint32Array.of(0b00011), tags: Uint32Array.of(0b01100) };
    const w2 = { title: Uint32Array.of(0b00001), tags: Uint32Array.of(0b00110) };
    // Slot 0: title twice; 1: title + tags; 2: tags twice; 3: tags + text; 4: text twice.
    expect([...rankBuckets(mask, [w1, w2], 5)]).toEqual([0, 1, 2, 3, 4]);
  });
});
