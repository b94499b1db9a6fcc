import { foldForSearch } from '../../shared/search-fold.js';
import { MIN_WORD_LENGTH } from '../../shared/search-input.js';
import type { CatalogueFilter } from '../../shared/storefront-input.js';

/**
 * Turns what a shopper typed into a safe FTS5 query: only runs of letters and digits survive, each becomes
 * a quoted prefix term ("kurt"* finds kurta), and terms are ANDed. Quotes, operators (AND, NEAR, -, :, ^),
 * wildcards and control characters can therefore never change the query's meaning or make it fail.
 * The text is folded as the index is (foldForSearch, migration 0011), so 'fine' finds 'ﬁne'.
 */
export function toFtsQuery(input: string | undefined): string | null {
  const terms = searchTerms(input);
  return terms ? terms.map(ftsPrefixTerm).join(' ') : null;
}

/** One search word (of searchTerms: letters and digits only) as a quoted FTS5 prefix term. */
export function ftsPrefixTerm(term: string): string {
  return `"${term}"*`;
}

/**
 * The words of a search: folded runs of letters and digits of two characters or more, at most 8 of at most
 * 40 characters each. A single character is not searched (decision 0024): as a prefix it reads a large part
 * of the index ('e' begins words in most products), and as a word it is mostly 'a'.
 */
export function searchTerms(input: string | undefined): string[] | null {
  if (!input) return null;
  const tokens = foldForSearch(input).match(/[\p{L}\p{N}]+/gu) ?? [];
  const words = tokens.filter((t) => [...t].length >= MIN_WORD_LENGTH).map((t) => t.slice(0, 40));
  const terms = [...new Set(words)].slice(0, 8);
  return terms.length === 0 ? null : terms;
}

/**
 * Folds a filter value exactly as the product_facets triggers fold it into value_key (migration 0011): makers,
 * colours and tags as search text is (foldForSearch, then SQLite's trim(), which strips spaces only), so
 * 'ＬＡＷＮ' and 'İpek' pick what a search for them finds; sizes with SQLite's upper(), which folds ASCII only.
 */
export function facetKey(kind: 'manufacturer' | 'size' | 'color' | 'tag', value: string): string {
  const trimSpaces = (s: string) => s.replace(/^ +| +$/g, '');
  return kind === 'size'
    ? trimSpaces(value).replace(/[a-z]/g, (c) => c.toUpperCase())
    : trimSpaces(foldForSearch(value));
}

/** The facet groups a filter can choose in, each with its field in the filter input. */
export const FACET_GROUPS = [
  { kind: 'manufacturer', field: 'manufacturers' },
  { kind: 'size', field: 'sizes' },
  { kind: 'color', field: 'colors' },
  { kind: 'tag', field: 'tags' },
] as const;

/** The distinct facet keys a filter chose in one group (values that fold to nothing are dropped). */
export function facetKeys(kind: 'manufacturer' | 'size' | 'color' | 'tag', values: string[]): string[] {
  return [...new Set(values.map((v) => facetKey(kind, v)).filter((v) => v !== ''))];
}

/** What a filter asks, as a key: the words and every condition, not the sort or the page. */
export function filterKey(f: CatalogueFilter): string {
  return JSON.stringify([
    f.q ?? '',
    f.manufacturers,
    f.sizes,
    f.colors,
    f.tags,
    f.priceMin,
    f.priceMax,
    f.inStock,
    f.onSale === true,
  ]);
}
