import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import wabt from 'wabt';
import { BIT_COUNT_WASM, bitCounter } from './bit-counter.js';
import { countBits } from './slot-sets.js';

/**
 * The WebAssembly counts against JavaScript's for generated bitsets: lengths odd and even (a set's last
 * 64-bit word is half padding), masks shorter than the sets (made before a snapshot grew) or longer, the
 * same array given twice, and several masks in scratch at once.
 */

const and = (a: Uint32Array, b: Uint32Array) => b.map((w, i) => (a[i] ?? 0) & w);
const andNot = (a: Uint32Array, b: Uint32Array, c: Uint32Array) =>
  b.map((w, i) => (a[i] ?? 0) & w & ~(c[i] ?? 0));

const bitsets = (words: number) =>
  fc.oneof(
    fc.uint32Array({ minLength: words, maxLength: words }),
    // Sparse: mostly zero words, as a mask narrowed by words is.
    fc
      .array(
        fc.oneof(fc.constant(0), fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 2 ** 32 - 1 })),
        {
          minLength: words,
          maxLength: words,
        },
      )
      .map((w) => Uint32Array.from(w)),
    fc.constant(new Uint32Array(words).fill(0xffffffff)),
  );

describe('bit counter', () => {
  it('embeds bit-count.wat as assembled', async () => {
    const source = readFileSync(new URL('./bit-count.wat', import.meta.url), 'utf8');
    const module = (await wabt()).parseWat('bit-count.wat', source);
    module.validate();
    const assembled = Buffer.from(module.toBinary({}).buffer).toString('base64');
    // When bit-count.wat changes, BIT_COUNT_WASM in bit-counter.ts becomes this.
    expect(BIT_COUNT_WASM).toBe(assembled);
  });

  it('counts as JavaScript does, and so does its JavaScript fallback', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }).chain((words) =>
          fc.record({
            words: fc.constant(words),
            sets: fc.array(bitsets(words), { minLength: 1, maxLength: 6 }),
            masks: fc.array(
              fc.integer({ min: Math.max(0, words - 3), max: words + 2 }).chain((n) => bitsets(n)),
              { minLength: 1, maxLength: 4 },
            ),
          }),
        ),
        ({ words, sets, masks }) => {
          for (const webAssembly of [true, false]) {
            const counter = bitCounter([...sets, sets[0] as Uint32Array], words, masks.length, {
              webAssembly,
            });
            const at = masks.map((m, i) => counter.put(i, m));
            for (const [i, mask] of masks.entries()) {
              const cut = mask.subarray(0, words);
              for (const set of sets) {
                expect(counter.andCount(at[i] as number, counter.at(set))).toBe(countBits(and(cut, set)));
                for (const sold of sets) {
                  expect(counter.andNotCount(at[i] as number, counter.at(set), counter.at(sold))).toBe(
                    countBits(andNot(cut, set, sold)),
                  );
                }
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts a 100,000-slot catalogue and a mask put again in the same place', () => {
    const words = 3125;
    const set = new Uint32Array(words).fill(0x0f0f0f0f);
    const counter = bitCounter([set], words, 1);
    expect(counter.andCount(counter.put(0, new Uint32Array(words).fill(0xffffffff)), counter.at(set))).toBe(
      words * 16,
    );
    // A shorter mask in the same place leaves no bit of the longer one behind.
    expect(counter.andCount(counter.put(0, new Uint32Array(10).fill(0xffffffff)), counter.at(set))).toBe(160);
  });

  it('refuses a set it was not made with and a place it has not', () => {
    const counter = bitCounter([new Uint32Array(4)], 4, 2);
    expect(() => counter.at(new Uint32Array(4))).toThrow(/not made with/);
    expect(() => counter.put(2, new Uint32Array(4))).toThrow(RangeError);
    expect(() => counter.put(-1, new Uint32Array(4))).toThrow(RangeError);
  });
});
