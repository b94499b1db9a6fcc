export const DEFAULT_SIZES = ['S', 'M', 'L', 'XL'] as const;

const SIZE_ORDER = ['XXS', 'XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL'];

/** Orders sizes XS, S, M, L, XL, XXL; sizes outside that list keep their order after the known ones. */
export function sortSizes(sizes: readonly string[]): string[] {
  const rank = (s: string) => {
    const i = SIZE_ORDER.indexOf(s.trim().toUpperCase());
    return i === -1 ? SIZE_ORDER.length : i;
  };
  return sizes
    .map((size, index) => ({ size, index }))
    .sort((a, b) => rank(a.size) - rank(b.size) || a.index - b.index)
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
