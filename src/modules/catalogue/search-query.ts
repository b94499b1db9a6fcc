/**
 * Turns what a shopper typed into a safe FTS5 query: only runs of letters and digits survive, each becomes
 * a quoted prefix term ("kurt"* finds kurta), and terms are ANDed. Quotes, operators (AND, NEAR, -, :, ^),
 * wildcards and control characters can therefore never change the query's meaning or make it fail.
 */
export function toFtsQuery(input: string | undefined): string | null {
  if (!input) return null;
  const tokens =
    input
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const terms = [...new Set(tokens.map((t) => t.slice(0, 40)))].slice(0, 8);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t}"*`).join(' ');
}

/**
 * Case-folds filter values exactly as the product_facets triggers do with SQLite's upper()/lower(), which
 * fold ASCII letters only (sizes upper case, the rest lower case); trim() likewise strips spaces only.
 */
export function facetKey(kind: 'manufacturer' | 'size' | 'color' | 'tag', value: string): string {
  const trimmed = value.replace(/^ +| +$/g, '');
  return kind === 'size'
    ? trimmed.replace(/[a-z]/g, (c) => c.toUpperCase())
    : trimmed.replace(/[A-Z]/g, (c) => c.toLowerCase());
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
