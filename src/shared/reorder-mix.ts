/**
 * The suggested size mix of a reorder (issue 44, decision 0041 "How the reorder mix is derived"): `pieces`
 * split over the sizes in proportion to the units each sold, by largest remainder (Hamilton): every size
 * first gets the whole part of its share, then the pieces left go one each to the largest remainders.
 *
 * - Nothing sold at all: an even split, the odd pieces to the first sizes in the order given.
 * - Equal remainders: a size that sold out (sold while none is on hand now) goes first, because what it sold
 *   is only a lower bound of what it could have sold; otherwise the order given (the product's size order).
 *   The mix never guesses those lost sales beyond that: the rate of 1 beside it tells the owner.
 * - Exact: shares and remainders are compared as integers (pieces × sold against the total sold), never as
 *   floats, so two equal shares are equal and the answer is the same on every machine.
 */

export type ReorderSize = {
  /** Units sold in the period (net of refunds); a whole number, 0 or more. */
  sold: number;
  /** Sold while none is on hand now: its demand is a lower bound. */
  soldOut?: boolean;
};

/** Pieces per size, in the order of `sizes`; sums to `pieces`. Throws on a negative or fractional count. */
export function reorderMix(sizes: readonly ReorderSize[], pieces: number): number[] {
  if (!Number.isSafeInteger(pieces) || pieces < 0) throw new RangeError(`pieces: ${pieces}`);
  for (const s of sizes) {
    if (!Number.isSafeInteger(s.sold) || s.sold < 0) throw new RangeError(`sold: ${s.sold}`);
  }
  if (sizes.length === 0) {
    if (pieces === 0) return [];
    throw new RangeError('No sizes to split pieces over');
  }
  const total = sizes.reduce((sum, s) => sum + BigInt(s.sold), 0n);
  // Nothing sold: every size weighs the same, which is the even split.
  const weights = total === 0n ? sizes.map(() => 1n) : sizes.map((s) => BigInt(s.sold));
  const denominator = total === 0n ? BigInt(sizes.length) : total;
  const n = BigInt(pieces);
  const shares = weights.map((w, index) => ({
    index,
    whole: (n * w) / denominator,
    remainder: (n * w) % denominator,
    soldOut: total !== 0n && sizes[index]?.soldOut === true && w > 0n,
  }));
  const result = shares.map((s) => Number(s.whole));
  let left = pieces - result.reduce((sum, x) => sum + x, 0);
  const order = [...shares].sort(
    (a, b) =>
      (a.remainder === b.remainder ? 0 : a.remainder > b.remainder ? -1 : 1) ||
      Number(b.soldOut) - Number(a.soldOut) ||
      a.index - b.index,
  );
  // Fewer pieces left than sizes, always: each remainder is under one piece.
  for (const s of order) {
    if (left === 0) break;
    result[s.index] = (result[s.index] ?? 0) + 1;
    left -= 1;
  }
  return result;
}
