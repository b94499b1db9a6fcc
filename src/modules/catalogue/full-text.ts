import { type RawBuilder, sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import { searchTerms, toFtsQuery } from './search-query.js';

/** More than 8 words of 40 letters, with room for what separates them; the rest cannot be a search word. */
const MAX_QUERY_TEXT = 1000;

/**
 * A shopper's words against the full-text index of the engine in use: FTS5's products_fts on SQLite, the
 * tsvector table product_search on PostgreSQL. Both are keyed by product_search_ids.rowid, which a product
 * gets anew each time it is indexed, so "newest indexed first" means the same on both.
 */
export type FullText = {
  /** The index table, for FROM. */
  table: RawBuilder<unknown>;
  /** The condition that a row of it matches. */
  match: RawBuilder<boolean>;
  /** Relevance, lower is better: a word in the title counts most, then tags and maker, then the description. */
  rank: RawBuilder<number>;
  /** The row's key in product_search_ids. */
  rowid: RawBuilder<number>;
  /**
   * The join that keeps the index as the outer loop: SQLite joins in the order written after CROSS JOIN;
   * PostgreSQL plans the order itself and allows no ON after CROSS JOIN.
   */
  join: RawBuilder<unknown>;
};

export async function fullText(db: DbOrTx, input: string | undefined): Promise<FullText | null> {
  if (engineOf(db) === 'postgres') {
    if (!input || !searchTerms(input)) return null;
    // Folded and cut into words by the same SQL as the index (migration postgres/0003), from what the
    // shopper typed. Worked out first and sent as a value rather than as a sub-select: the planner then
    // sees the words and estimates their matches from the statistics. Behind a sub-select it guessed
    // 500 matches for every word, so a broad word ('silk', 34,648 of 100,000) was read whole and sorted
    // (35-50 ms) where a backward scan of the rowid index stops at the ranking window (3 ms for 5,000).
    const words = await sql<{
      q: string;
    }>`SELECT search_query(${input.slice(0, MAX_QUERY_TEXT)})::text AS q`.execute(db);
    const q = words.rows[0]?.q ?? '';
    // No word of two letters or more once folded here: nothing is searched, as on SQLite. The folds differ
    // at the edges (PostgreSQL's makes ':' of U+02D0 'ː', which JavaScript keeps as a letter), so the words
    // JavaScript saw may be one letter here.
    if (q === '') return null;
    const tsquery = sql`${q}::tsquery`;
    return {
      table: sql`product_search`,
      match: sql<boolean>`product_search.document @@ ${tsquery}`,
      // Weights D, C (description), B (tags, maker), A (title); ts_rank is higher for better matches.
      rank: sql<number>`-ts_rank('{0, 0.1, 0.5, 1}', product_search.document, ${tsquery})`,
      rowid: sql<number>`product_search.rowid`,
      join: sql.raw('JOIN'),
    };
  }
  const match = toFtsQuery(input);
  if (!match) return null;
  return {
    table: sql`products_fts`,
    match: sql<boolean>`products_fts MATCH ${match}`,
    rank: sql<number>`bm25(products_fts, 10.0, 1.0, 4.0, 6.0)`,
    rowid: sql<number>`products_fts.rowid`,
    join: sql.raw('CROSS JOIN'),
  };
}
