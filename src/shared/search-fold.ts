/**
 * The one spelling that the search index, a shopper's query and facet keys are all reduced to, so that text
 * a shopper reads as the same word matches (decision 0011):
 * - NFKC turns compatibility forms into plain ones: ﬁ → fi, ＫＵＲＴＡ → KURTA, ǅ → Dž, ² → 2;
 * - toLowerCase folds every script's capitals (SQLite's lower() folds ASCII only);
 * - combining diacritical marks (U+0300–U+036F) still left are dropped: lower-casing İ gives i + U+0307,
 *   and a mark with no precomposed letter (q̃) stays separate after NFKC. The index's tokenizer
 *   (unicode61 remove_diacritics 2) drops such marks inside a word, but the query's word splitter would cut
 *   the word in two there;
 * - final sigma (ς, which toLowerCase gives for a word-final Σ) is written σ, as PostgreSQL's lower() and a
 *   shopper who types σ write it, so the word is the same wherever it was capitalised (migration 0016).
 * Pure and deterministic: SQLite calls it as search_fold() from the indexing triggers (registered by
 * openDatabase), and a PostgreSQL index can be fed from the same function.
 * Changing what it returns changes what is in existing indexes: ship a migration that indexes again.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ς/g, 'σ');
}

/** The SQL name under which openDatabase registers foldForSearch; migration 0011's triggers call it. */
export const SEARCH_FOLD_SQL_FUNCTION = 'search_fold';
