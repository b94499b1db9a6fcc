import { type Kysely, sql } from 'kysely';

const LEXEME = `'''' || replace(replace(word, '\\', '\\\\'), '''', '''''') || ''''`;

/** search_query of migration 0003, choosing its 8 words among those `wordFilter` keeps. */
function searchQuery(wordFilter: string): string {
  return `CREATE OR REPLACE FUNCTION search_query(input text) RETURNS tsquery LANGUAGE sql STABLE PARALLEL SAFE
       AS $$
         SELECT coalesce(string_agg(${LEXEME} || ':*', ' & ' ORDER BY first), '')::tsquery
         FROM (
           SELECT word, first FROM (
             SELECT left(w.word, 40) AS word, min(w.n) AS first FROM search_words(input) AS w
             ${wordFilter} GROUP BY 1
           ) AS distinct_words ORDER BY first LIMIT 8
         ) AS chosen
       $$`;
}

/**
 * A shopper's words of one character are not searched (decision 0024), as searchTerms drops them on
 * SQLite: the same 8 words are then chosen on both engines. `left(…, 40)` counts characters, as the app.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(searchQuery('WHERE length(w.word) >= 2')).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(searchQuery('')).execute(db);
}
