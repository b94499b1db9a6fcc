import { foldForSearch } from './search-fold.js';

/**
 * Colour variants (decision 0036): one design in several colours, each with its photos, an optional price
 * and its own stock per size. Shared by the server and the browser, so it carries no Zod.
 */

/** At most this many colours per product: a shade card, not a paint chart. */
export const MAX_COLOURS = 20;
export const MAX_COLOUR_NAME = 50;
export const MAX_SKU_SUFFIX = 20;
/** Photos one colour can name (of the product's own). */
export const MAX_COLOUR_IMAGES = 50;

/** The stock pool every colour draws from when it has no count of its own (and a product with no colours). */
export const ALL_COLOURS = '';

/** A colour as the product keeps it. */
export type ColourOption = {
  name: string;
  /** "#1f7a6d": the swatch; null shows the colour's first photo, or its name alone. */
  hex: string | null;
  /** Added to the product's SKU for this colour ("KURTA-01" + "-TEAL"). */
  skuSuffix: string | null;
  /** The colour's own price in minor units of the product's currency; null: the product's price. */
  priceMinor: number | null;
  /** Photo URLs of the product shown for this colour first; a photo named by no colour is for all colours. */
  images: string[];
  /** Measurements of this colour when its cut differs; null: the product's chart (the default). */
  sizeDetail: Record<string, Record<string, string>> | null;
};

/**
 * What a colour is shown as on a card and in the swatches of a listing: its swatch colour, else its first
 * photo, each left out when it has none (every card of a page carries its colours). A listing's card sends
 * `image` only for a colour without a swatch colour, the one case the card shows it (card-cache.ts).
 */
export type ColourSwatch = { name: string; hex?: string; image?: string };

/** Spaces trimmed and runs of white space made one: how a colour's name is kept. */
export function tidyColourName(name: string): string {
  return name.trim().replace(/\s+/gu, ' ');
}

/**
 * The key one colour is known by in the stock, the holds, the wishes and the catalogue filter: the colour
 * facet's own fold (search-query.ts facetKey, the product_facets triggers), so "Teal", " teal " and "TEAL"
 * are one colour and a stock row joins its facet row directly.
 */
export function colourKey(name: string): string {
  return foldForSearch(tidyColourName(name)).replace(/^ +| +$/g, '');
}

/** The colour in a link (`?colour=sea-green`): its key with spaces, dashes and underscores as one dash. */
export function colourSlug(name: string): string {
  return colourKey(name)
    .replace(/[\s_-]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** The colour a link or a cart line names, by its slug (any spelling of the name gives the same slug). */
export function findColour<T extends { name: string }>(
  colours: readonly T[],
  asked: string | null | undefined,
) {
  if (!asked) return undefined;
  const slug = colourSlug(asked);
  return slug === '' ? undefined : colours.find((c) => colourSlug(c.name) === slug);
}

/** "#1F7A6D" → "#1f7a6d"; anything but six hex digits (with or without #) is not a swatch. */
export function normaliseHex(hex: string): string | null {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  return m?.[1] ? `#${m[1].toLowerCase()}` : null;
}

/** The photos of a product in the order a colour shows them: its own first, then those of every colour. */
export function photosForColour<T extends { url: string }>(
  photos: readonly T[],
  colours: readonly ColourOption[],
  colour: ColourOption | undefined,
): T[] {
  if (!colour) return [...photos];
  const own = new Set(colour.images);
  const others = new Set(colours.filter((c) => c !== colour).flatMap((c) => c.images));
  const first = colour.images.flatMap((url) => photos.filter((p) => p.url === url));
  const shared = photos.filter((p) => !own.has(p.url) && !others.has(p.url));
  return [...new Set([...first, ...shared])];
}

/** "Teal / M", "Teal", "M": how a line names what was bought. */
export function variantLabel(colour: string | null | undefined, size: string | null | undefined): string {
  return [colour, size].filter((v): v is string => !!v).join(' / ');
}
