import type { ProductColour } from '@shared/catalogue';
import { findColour } from '@shared/colours';
import { COLOUR_PAGE_PARAM as COLOUR_PARAM } from '@shared/ssr-contract';

/** The colour a page's address names, when it is one of the product's (any spelling of its name or slug). */
export function colourInSearch(colours: readonly ProductColour[], search: string): ProductColour | undefined {
  return findColour(colours, new URLSearchParams(search).get(COLOUR_PARAM));
}

/** Every size of this colour is tracked and none is left (a product without sizes is never sold out here). */
export function isColourSoldOut(colour: ProductColour, sizes: readonly string[]): boolean {
  return sizes.length > 0 && sizes.every((s) => colour.soldOutSizes.includes(s));
}

/**
 * The colour a page opens with when its address names none: the first the shopper can buy something in,
 * else the first. Server and browser compute it from the same answer, so hydration agrees.
 */
export function defaultColour(
  colours: readonly ProductColour[],
  sizes: readonly string[],
): ProductColour | undefined {
  return colours.find((c) => !isColourSoldOut(c, sizes)) ?? colours[0];
}

/** The address's query string with the colour set, every other parameter kept as it was. */
export function searchWithColour(search: string, slug: string): string {
  const params = new URLSearchParams(search);
  params.set(COLOUR_PARAM, slug);
  return `?${params.toString()}`;
}
