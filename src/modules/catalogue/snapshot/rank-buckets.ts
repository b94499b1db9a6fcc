import { WORD_SCORE } from '../full-text.js';
import { freshMask, type TakeMask } from './scratch-masks.js';
import { popcount32 } from './slot-sets.js';

/** A word's matches, as ranking reads them: in the title, in the maker or tags (each a bitset of slots). */
export type RankedWord = { title: Uint32Array; tags: Uint32Array };

/**
 * The `limit` slots after the first `offset` of `mask` in rank order: best score first and the highest slot
 * first within a score, where a slot's score is the sum over the words of WORD_SCORE.title (found in its
 * title), .tags (in its maker or tags but not the title) or .text (elsewhere). The same order as scoring
 * slot by slot, worked out a machine word (32 slots) at a time: each word adds its title and tags bits into
 * two counters kept as bit slices (one bitset per binary digit, from `take`), and each score's slots are the
 * mask's bits whose counters hold one of its (title, tags) counts; the passes stop once the page is full.
 * A broad word (a third of 100,000 products) was scored slot by slot in about a millisecond. Each score
 * costs a pass over the mask: `bucketsPay` says when that is cheaper than scoring its slots.
 */
export function rankBuckets(
  mask: Uint32Array,
  words: readonly RankedWord[],
  offset: number,
  limit: number,
  take: TakeMask = freshMask,
): number[] {
  const k = words.length;
  const digits = digitsFor(k);
  const inTitle = slices(mask.length, digits, take);
  const inTags = slices(mask.length, digits, take);
  for (const w of words) {
    for (let i = 0; i < mask.length; i++) {
      const m = mask[i] ?? 0;
      if (m === 0) continue;
      const title = (w.title[i] ?? 0) & m;
      addBits(inTitle, i, title);
      addBits(inTags, i, (w.tags[i] ?? 0) & m & ~title);
    }
  }
  const page: number[] = [];
  let skip = offset;
  for (const counts of scoresBestFirst(k)) {
    if (page.length >= limit) break;
    for (let i = mask.length - 1; i >= 0 && page.length < limit; i--) {
      const m = mask[i] ?? 0;
      if (m === 0) continue;
      let held = 0;
      for (const [a, b] of counts) held |= equals(inTitle, i, a) & equals(inTags, i, b);
      let word = m & held;
      // A page further on passes over whole machine words.
      const here = popcount32(word);
      if (skip >= here) {
        skip -= here;
        continue;
      }
      while (word !== 0 && page.length < limit) {
        const bit = 31 - Math.clz32(word);
        word &= ~(1 << bit);
        if (skip > 0) skip--;
        else page.push((i << 5) + bit);
      }
    }
  }
  return page;
}

/**
 * Whether rankBuckets costs less than scoring `count` matches of `words` words one by one: its passes
 * (one per score, each reading both counters' digits per machine word) against about four such reads per
 * word and match. One word pays from about one slot in 21 matching, nine from about one in 3.
 */
export function bucketsPay(words: number, maskWords: number, count: number): boolean {
  const scores = ((words + 1) * (words + 2)) / 2;
  return scores * maskWords * 2 * digitsFor(words) < count * words * 4;
}

function digitsFor(k: number): number {
  return Math.max(1, 32 - Math.clz32(k));
}

function slices(length: number, digits: number, take: TakeMask): Uint32Array[] {
  return Array.from({ length: digits }, () => take(length));
}

/** Adds 1 to the counter of every slot set in `bits` (a ripple carry through the slices). */
function addBits(counter: Uint32Array[], i: number, bits: number): void {
  let carry = bits;
  for (let d = 0; d < counter.length && carry !== 0; d++) {
    const digit = counter[d] as Uint32Array;
    const held = digit[i] ?? 0;
    digit[i] = held ^ carry;
    carry &= held;
  }
}

/** The slots of machine word `i` whose counter holds `value`. */
function equals(counter: Uint32Array[], i: number, value: number): number {
  let out = -1;
  for (let d = 0; d < counter.length; d++) {
    const digit = (counter[d] as Uint32Array)[i] ?? 0;
    out &= (value >> d) & 1 ? digit : ~digit;
  }
  return out;
}

/**
 * The (title, tags) counts a slot can have with `k` words, grouped by the score they give, best first (no
 * two share a score with today's weights and up to 9 words; a group keeps the order right if some did).
 */
function scoresBestFirst(k: number): Array<Array<[number, number]>> {
  const byScore = new Map<number, Array<[number, number]>>();
  for (let a = 0; a <= k; a++) {
    for (let b = 0; a + b <= k; b++) {
      const score = a * WORD_SCORE.title + b * WORD_SCORE.tags + (k - a - b) * WORD_SCORE.text;
      const group = byScore.get(score);
      if (group) group.push([a, b]);
      else byScore.set(score, [[a, b]]);
    }
  }
  return [...byScore.entries()].sort((x, y) => y[0] - x[0]).map(([, counts]) => counts);
}
