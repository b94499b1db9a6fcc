/**
 * Requests no cache has seen: shoppers typing their own words and clicking their own filters. Each is the
 * batch the storefront sends when the listing changes (a page of cards and the facet counts), drawn from
 * the generated catalogue's own words, sizes, colours and makers, and never the same twice in one stream.
 */
import { mulberry32, CATALOGUE_VOCABULARY as V } from './generate-catalogue.js';

export type DistinctFilter = {
  q?: string;
  manufacturers: string[];
  sizes: string[];
  colors: string[];
  tags: string[];
  priceMin?: number;
  priceMax?: number;
  inStock?: boolean;
  onSale?: boolean;
};

const SORTS = ['featured', 'newest', 'price-asc', 'price-desc'] as const;

/** What a shopper types: a word, two, a phrase from a title, a maker, or the first letters of a word. */
function words(rand: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const word = () => pick([...V.fabrics, ...V.garments, ...V.motifs, ...V.colours, ...V.tags]).toLowerCase();
  const roll = rand();
  if (roll < 0.35) return word();
  if (roll < 0.6) return `${word()} ${word()}`;
  if (roll < 0.75) return `${pick(V.motifs)} ${pick(V.fabrics)} ${pick(V.garments)}`.toLowerCase();
  if (roll < 0.85) return pick(V.makers).toLowerCase();
  // Typing as you go: one to four letters of a word.
  const whole = word();
  return whole.slice(0, 1 + Math.floor(rand() * Math.min(4, whole.length)));
}

/** The next distinct filter: words in three of four, each filter group sometimes, and a sort. */
export function distinctFilters(seed = 7) {
  const rand = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const some = <T>(list: readonly T[], p: number): T[] => (rand() < p ? [pick(list)] : []);
  const seen = new Set<string>();
  return (): { filter: DistinctFilter; sort: (typeof SORTS)[number] | undefined; key: string } => {
    for (;;) {
      const filter: DistinctFilter = {
        ...(rand() < 0.75 ? { q: words(rand) } : {}),
        manufacturers: some(V.makers, 0.15),
        sizes: some(V.sizes, 0.45),
        colors: some(V.colours, 0.3),
        tags: some(V.tags, 0.2),
        ...(rand() < 0.15 ? { priceMin: 2500 + Math.floor(rand() * 200) * 100 } : {}),
        ...(rand() < 0.15 ? { priceMax: 30_000 + Math.floor(rand() * 250) * 100 } : {}),
        ...(rand() < 0.15 ? { inStock: true } : {}),
        ...(rand() < 0.1 ? { onSale: true } : {}),
      };
      const sort = filter.q && rand() < 0.6 ? undefined : pick(SORTS);
      const key = JSON.stringify([filter, sort]);
      // Tried again until new; with these choices the stream has millions of distinct requests.
      if (seen.has(key)) continue;
      seen.add(key);
      return { filter, sort, key };
    }
  };
}

/** The storefront's batch for a listing: the first page of cards and the facet counts. */
export function listingBatchPath(filter: DistinctFilter, sort: string | undefined): string {
  const inputs = { 0: { ...filter, ...(sort ? { sort } : {}), limit: 24 }, 1: filter };
  return `/api/trpc/catalogue.search,catalogue.facets?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`;
}

/** A stream of listing batches, each one unseen. */
export function distinctListingPaths(seed = 7): () => string {
  const next = distinctFilters(seed);
  return () => {
    const { filter, sort } = next();
    return listingBatchPath(filter, sort);
  };
}
