export const DEFAULT_SIZES = ['S', 'M', 'L', 'XL'] as const;

const SIZE_ORDER = ['XXS', 'XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL'];

/**
 * A size's place in the order a shop lists them (XXS, XS, S, M, L, XL, XXL, XXXL); any other size ranks after
 * those. Compared by sizeKey, as the checkout and the size facet compare sizes, so ' m ' ranks as 'M'.
 */
export function sizeRank(size: string): number {
  const i = SIZE_ORDER.indexOf(sizeKey(size));
  return i === -1 ? SIZE_ORDER.length : i;
}

/** Sizes in sizeRank's order; sizes of one rank (those outside the list) keep their order. */
export function sortSizes(sizes: readonly string[]): string[] {
  return sizes
    .map((size, index) => ({ size, index }))
    .sort((a, b) => sizeRank(a.size) - sizeRank(b.size) || a.index - b.index)
    .map((x) => x.size);
}

/**
 * What two spellings of one size share: a shopper's 'm', ' M ' and 'M' are one size, as the checkout's size
 * check and the size facet (upper(trim())) already treat them.
 */
export function sizeKey(size: string): string {
  return size.trim().toUpperCase();
}

/** The product's own spelling of `size` when it offers that size in any spelling, else `size` trimmed. */
export function productSpelling(sizes: readonly string[], size: string): string {
  return sizes.find((s) => sizeKey(s) === sizeKey(size)) ?? size.trim();
}
