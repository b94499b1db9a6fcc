import { type RawBuilder, sql } from 'kysely';
import { lruGet, lruSet } from '../../core/lru.js';
import type { DbOrTx } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import { parseRowids } from './rowid-list.js';
import { ftsPrefixTerm, searchTerms, toFtsQuery } from './search-query.js';

/** More than 8 words of 40 letters, with room for what separates them; the rest cannot be a search word. */
const MAX_QUERY_TEXT = 1000;

/**
 * What one searched word adds to a product's relevance (decision 27), by the field it is found in: the
 * title, else the maker or the tags, else the description. With at most 8 words the sum orders products
 * by how many words are in their titles, then how many in their maker or tags.
 */
export const WORD_SCORE = { title: 100, tags: 10, text: 1 } as const;

/**
 * A search word as the engine's own index has it, with the index query that finds it anywhere, in the
 * title, and in the maker or tags. A search matches the products that every one of its words matches, on
 * both engines, so a search's matches are the intersection of its words' (kept per word in the snapshot).
 */
export type IndexWord = { key: string; any: string; title: string; tags: string };

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
  /** Relevance, lower is better: minus the sum of the words' WORD_SCORE (decision 27). */
  rank: RawBuilder<number>;
  /** The row's key in product_search_ids. */
  rowid: RawBuilder<number>;
  /**
   * The join that keeps the index as the outer loop: SQLite joins in the order written after CROSS JOIN;
   * PostgreSQL plans the order itself and allows no ON after CROSS JOIN.
   */
  join: RawBuilder<unknown>;
};

/**
 * The words of a search as the engine's index cuts and folds them, or null when nothing is searched.
 * SQLite: the quoted prefix terms of toFtsQuery, each of which FTS5 cuts with its own tokenizer (a term it
 * cuts in two is a phrase, found where both parts follow each other). PostgreSQL: the lexemes of
 * search_query (migration postgres/0003), which folds and cuts the text itself; the folds differ at the
 * edges (PostgreSQL's makes ':' of U+02D0 'ː', which JavaScript keeps as a letter), so what JavaScript
 * took for a word may be none there.
 */
export async function indexWords(db: DbOrTx, input: string | undefined): Promise<IndexWord[] | null> {
  const terms = searchTerms(input);
  if (!input || !terms) return null;
  if (engineOf(db) !== 'postgres') {
    return terms.map((t) => ({
      key: t,
      any: ftsPrefixTerm(t),
      title: `{title} : ${ftsPrefixTerm(t)}`,
      tags: `{manufacturer tags} : ${ftsPrefixTerm(t)}`,
    }));
  }
  // Each lexeme as the tsquery text prints it ('it''s':*), which is also valid tsquery input.
  const lexemes = (await postgresQuery(db, input)).match(/'(?:[^'\\]|''|\\.)*'/g) ?? [];
  if (lexemes.length === 0) return null;
  return lexemes.map((l) => ({ key: l, any: `${l}:*`, title: `${l}:*A`, tags: `${l}:*B` }));
}

/**
 * search_query's text for an input, kept per input: a pure function of the text (migration
 * postgres/0010), asked of the server once rather than with every request.
 */
async function postgresQuery(db: DbOrTx, input: string): Promise<string> {
  const text = input.slice(0, MAX_QUERY_TEXT);
  const known = lruGet(postgresQueries, text);
  if (known !== undefined) return known;
  const words = await sql<{ q: string }>`SELECT search_query(${text})::text AS q`.execute(db);
  const q = words.rows[0]?.q ?? '';
  lruSet(postgresQueries, text, q, POSTGRES_QUERIES);
  return q;
}
const POSTGRES_QUERIES = 1_000;
const postgresQueries = new Map<string, string>();

export async function fullText(db: DbOrTx, input: string | undefined): Promise<FullText | null> {
  const words = await indexWords(db, input);
  if (!words) return null;
  const score = (found: (query: string) => RawBuilder<boolean>) =>
    sql.join(
      words.map(
        (w) => sql`CASE WHEN ${found(w.title)} THEN ${sql.lit(WORD_SCORE.title)}
          WHEN ${found(w.tags)} THEN ${sql.lit(WORD_SCORE.tags)} ELSE ${sql.lit(WORD_SCORE.text)} END`,
      ),
      sql` + `,
    );
  if (engineOf(db) === 'postgres') {
    // Sent as a value rather than as a sub-select: the planner then sees the words and estimates their
    // matches from the statistics. Behind a sub-select it guessed 500 matches for every word, so a broad
    // word ('silk', 34,648 of 100,000) was read whole and sorted (35-50 ms) where a backward scan of the
    // rowid index stops at the ranking window.
    const tsquery = sql`${words.map((w) => w.any).join(' & ')}::tsquery`;
    return {
      table: sql`product_search`,
      match: sql<boolean>`product_search.document @@ ${tsquery}`,
      // Weight A is the title, B the maker and the tags (migration postgres/0001).
      rank: sql<number>`-(${score((q) => sql<boolean>`product_search.document @@ ${q}::tsquery`)})`,
      rowid: sql<number>`product_search.rowid`,
      join: sql.raw('JOIN'),
    };
  }
  return {
    table: sql`products_fts`,
    match: sql<boolean>`products_fts MATCH ${toFtsQuery(input)}`,
    // Each field test is a set of rowids SQLite builds once per statement, not a search per row.
    rank: sql<number>`-(${score(
      (q) =>
        sql<boolean>`products_fts.rowid IN (SELECT rowid FROM products_fts WHERE products_fts MATCH ${q})`,
    )})`,
    rowid: sql<number>`products_fts.rowid`,
    join: sql.raw('CROSS JOIN'),
  };
}

/** A word's matches as joined rowids: anywhere, in the title, and in the maker or tags. */
export type WordRowids = { any: string | null; title: string | null; tags: string | null };

/** A word's matches as lists of rowids: anywhere, in the title, and in the maker or tags. */
export type WordRowidLists = {
  any: Float64Array<ArrayBuffer>;
  title: Float64Array<ArrayBuffer>;
  tags: Float64Array<ArrayBuffer>;
};

/** readWordRowids, parsed (rowid-list.ts). */
export async function readWordRowidLists(db: DbOrTx, word: IndexWord): Promise<WordRowidLists> {
  const joined = await readWordRowids(db, word);
  return { any: parseRowids(joined.any), title: parseRowids(joined.title), tags: parseRowids(joined.tags) };
}

/**
 * One word's matches, each set as one row of joined rowids: a row per match cost three to four times as
 * much to hand over ('silk': 34,648 matches at 100,000 products, 42 ms as rows, 11 ms joined).
 */
export async function readWordRowids(db: DbOrTx, word: IndexWord): Promise<WordRowids> {
  if (engineOf(db) === 'postgres') {
    const found = (q: string) => sql<boolean>`document @@ ${q}::tsquery`;
    const row = (
      await sql<WordRowids>`SELECT string_agg(rowid::text, ',') AS any,
          string_agg(rowid::text, ',') FILTER (WHERE ${found(word.title)}) AS title,
          string_agg(rowid::text, ',') FILTER (WHERE ${found(word.tags)}) AS tags
        FROM product_search WHERE ${found(word.any)}`.execute(db)
    ).rows[0];
    return row ?? { any: null, title: null, tags: null };
  }
  const joined = (q: string) =>
    sql`(SELECT group_concat(CAST(rowid AS text), ',') FROM products_fts WHERE products_fts MATCH ${q})`;
  const row = (
    await sql<WordRowids>`SELECT ${joined(word.any)} AS any, ${joined(word.title)} AS title,
        ${joined(word.tags)} AS tags`.execute(db)
  ).rows[0];
  return row ?? { any: null, title: null, tags: null };
}
