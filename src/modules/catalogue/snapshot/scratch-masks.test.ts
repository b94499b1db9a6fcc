import { describe, expect, it } from 'vitest';
import { type TakeMask, withScratchMasks } from './scratch-masks.js';

describe('scratch masks', () => {
  it('are zeroed, whatever an earlier step left in the same memory', () => {
    withScratchMasks((take) => take(8).fill(0xffffffff));
    expect(withScratchMasks((take) => [...take(8)])).toEqual(Array(8).fill(0));
  });

  it('reuse the memory of a step that returned, and never share bytes while both are held', () => {
    const first = withScratchMasks((take) => {
      const a = take(4);
      const b = take(4);
      a.fill(1);
      b.fill(2);
      expect([...a]).toEqual([1, 1, 1, 1]);
      return a.byteOffset;
    });
    expect(withScratchMasks((take) => take(4).byteOffset)).toBe(first);
  });

  it('nest: an inner step takes above what the outer one holds and gives only its own back', () => {
    withScratchMasks((take) => {
      const outer = take(4).fill(7);
      const innerOffset = withScratchMasks((inner) => {
        const m = inner(4).fill(9);
        expect(m.byteOffset).toBeGreaterThanOrEqual(outer.byteOffset + outer.byteLength);
        return m.byteOffset;
      });
      const after = take(4);
      expect(after.byteOffset).toBe(innerOffset);
      expect([...outer]).toEqual([7, 7, 7, 7]);
    });
  });

  it('keep the masks already taken when a step needs more memory than there is', () => {
    withScratchMasks((take) => {
      const small = take(16).fill(5);
      // Far past the first megabyte: the memory is replaced by a larger one.
      const big = take(1_000_000).fill(6);
      // Compared as booleans: a matcher would print 4 MB of buffer.
      expect(big.buffer === small.buffer).toBe(false);
      expect([...small]).toEqual(Array(16).fill(5));
      const next = take(16);
      expect(next.buffer === big.buffer).toBe(true);
      expect(next.byteOffset).toBeGreaterThanOrEqual(big.byteOffset + big.byteLength);
    });
  });

  it('refuse a mask asked for after the step returned, and a step that is not synchronous', () => {
    let kept: TakeMask | undefined;
    withScratchMasks((take) => {
      kept = take;
    });
    expect(() => kept?.(4)).toThrow(/after its step returned/);
    expect(() => withScratchMasks(async (take) => take(4))).toThrow(/synchronous/);
    // Given back all the same: the next step starts where the refused one did.
    const a = withScratchMasks((take) => take(1).byteOffset);
    expect(withScratchMasks((take) => take(1).byteOffset)).toBe(a);
  });
});
