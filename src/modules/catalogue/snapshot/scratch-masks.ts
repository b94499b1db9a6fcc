/**
 * Bitsets that one synchronous step works in (a listing's page, its facet counts), cut from memory kept
 * for reuse instead of allocated for each request. Each new Uint32Array was an ArrayBuffer outside V8's
 * heap (12.5 kB at 100,000 products, ten or more per listing), and V8 counts such memory allocated since
 * its last full collection toward starting the next one: under a stream of new filters that was a
 * mark-compact every 0.4 s, each slowing every request then in flight (docs/benchmark.md).
 *
 * A step's masks are given back when it returns, so they must not outlive it: nothing taken here may be
 * kept in a cache, returned, or read after an `await`. Steps nest (a step may run another): each takes
 * above what the steps around it hold.
 */

/** A zeroed bitset of `words` 32-bit words, valid until the step that was given this function returns. */
export type TakeMask = (words: number) => Uint32Array;

/** Allocates, as outside any step (tests, and callers that keep what they make). */
export const freshMask: TakeMask = (words) => new Uint32Array(words);

const FIRST_BYTES = 1 << 20;
let memory = new ArrayBuffer(0);
/** Bytes held by the steps running now, from the start of `memory`. */
let held = 0;

/** Runs `step` with bitsets it may take and must give back by returning (synchronously). */
export function withScratchMasks<T>(step: (take: TakeMask) => T): T {
  const mark = held;
  let open = true;
  const take: TakeMask = (words) => {
    if (!open) throw new Error('a scratch mask was asked for after its step returned');
    const bytes = words * 4;
    if (held + bytes > memory.byteLength) {
      // Masks already handed out keep the old memory alive; new ones come from the larger one, past every
      // offset in use, so no two live masks ever share bytes.
      memory = new ArrayBuffer(Math.max(FIRST_BYTES, 2 * (held + bytes)));
    }
    const mask = new Uint32Array(memory, held, words);
    held += bytes;
    mask.fill(0);
    return mask;
  };
  try {
    const result = step(take);
    if (result instanceof Promise) throw new Error('a scratch mask step must be synchronous');
    return result;
  } finally {
    open = false;
    held = mark;
  }
}
