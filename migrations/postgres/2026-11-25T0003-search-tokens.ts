import { type Kysely, sql } from 'kysely';

/**
 * Words as FTS5 and the shopper's query see them, not as PostgreSQL's text-search parser does. That parser
 * keeps vowel signs inside Devanagari words (FTS5's unicode61 and the query's splitter cut there), makes
 * extra words of hyphenated text, e-mail addresses and file names, and drops letters its Unicode tables
 * are too old for. Here a word is a run of letters and digits (\p{L}, \p{N}: the classes the app's query
 * splitter uses, src/modules/catalogue/search-query.ts), cut from the folded, unaccented text by a regular
 * expression, and the tsvector and tsquery are written from those words directly, so the parser never
 * sees them. The shopper's query goes through the same SQL (search_query), so both sides fold and split
 * alike by construction. search_fold also writes final sigma as σ, as the app's fold now does (SQLite's
 * migration 2026-11-25T0016). Every product is indexed again under its own search rowid.
 */

/** A bracket expression of every letter and digit, from this Node's Unicode tables. */
function letterOrDigitClass(): string {
  const isWordChar = /^[\p{L}\p{N}]$/u;
  const ranges: string[] = [];
  let start = -1;
  for (let cp = 0; cp <= 0x110000; cp++) {
    const inside =
      cp < 0x110000 && !(cp >= 0xd800 && cp <= 0xdfff) && isWordChar.test(String.fromCodePoint(cp));
    if (inside && start < 0) start = cp;
    if (!inside && start >= 0) {
      const end = cp - 1;
      ranges.push(
        end === start
          ? String.fromCodePoint(start)
          : `${String.fromCodePoint(start)}-${String.fromCodePoint(end)}`,
      );
      start = -1;
    }
  }
  // No letter or digit is one of ] \ ^ - [, so nothing inside needs escaping.
  return `[${ranges.join('')}]+`;
}

/** A lexeme as tsvector and tsquery input read it: quoted, so no character in it is taken as syntax. */
const LEXEME = `'''' || replace(replace(word, '\\', '\\\\'), '''', '''''') || ''''`;

/**
 * The capitals this server's lower() leaves alone or lowers otherwise than the app's toLowerCase does (its
 * C library's Unicode tables are older, or the database's locale is C), each with the app's lower case.
 * search_fold translates them first, so both engines fold a word alike.
 */
async function lowerCaseGaps(db: Kysely<unknown>): Promise<{ from: string; to: string }> {
  const pairs = new Map<number, string>();
  for (let cp = 0; cp < 0x110000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const char = String.fromCodePoint(cp);
    const lower = char.toLowerCase();
    // One code point each way: what translate() can do (İ, which lowers to two, loses its dot anyway).
    if (lower !== char && [...lower].length === 1) pairs.set(cp, lower);
  }
  const server = await sql<{ cp: number; lower: string }>`
    SELECT cp, lower(chr(cp)) AS lower FROM unnest(${[...pairs.keys()]}::int[]) AS cp`.execute(db);
  let from = '';
  let to = '';
  for (const row of server.rows) {
    const wanted = pairs.get(row.cp);
    if (wanted === undefined || row.lower === wanted) continue;
    from += String.fromCodePoint(row.cp);
    to += wanted;
  }
  return { from, to };
}

/**
 * The characters this server's NFKC leaves alone or writes otherwise than the app's normalize('NFKC') (its
 * Unicode tables are older), each with the app's form; search_fold replaces them before normalizing.
 */
async function normalizationGaps(db: Kysely<unknown>): Promise<Array<[string, string]>> {
  const forms = new Map<number, string>();
  for (let cp = 0; cp < 0x110000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const char = String.fromCodePoint(cp);
    const form = char.normalize('NFKC');
    if (form !== char) forms.set(cp, form);
  }
  const server = await sql<{ cp: number; form: string }>`
    SELECT cp, normalize(chr(cp), NFKC) AS form FROM unnest(${[...forms.keys()]}::int[]) AS cp`.execute(db);
  return server.rows.flatMap((row) => {
    const wanted = forms.get(row.cp);
    return wanted === undefined || row.form === wanted ? [] : [[String.fromCodePoint(row.cp), wanted]];
  });
}

type Gaps = { lower: { from: string; to: string }; nfkc: Array<[string, string]> };

function statements(gaps: Gaps): string[] {
  const words = letterOrDigitClass().replace(/'/g, "''");
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  // Only text that holds one of them pays for the replacing.
  const value = "coalesce(value, '')";
  const renormalized =
    gaps.nfkc.length === 0
      ? value
      : `CASE WHEN ${value} ~ ${quote(`[${gaps.nfkc.map(([c]) => c).join('')}]`)} THEN ${gaps.nfkc.reduce(
          (text, [from, to]) => `replace(${text}, ${quote(from)}, ${quote(to)})`,
          value,
        )} ELSE ${value} END`;
  const normalized = `normalize(${renormalized}, NFKC)`;
  const folded =
    gaps.lower.from === ''
      ? normalized
      : `translate(${normalized}, ${quote(gaps.lower.from)}, ${quote(gaps.lower.to)})`;
  return [
    `CREATE OR REPLACE FUNCTION search_fold(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
       AS $$ SELECT translate(regexp_replace(lower(${folded}), '[\u0300-\u036f]', '', 'g'), 'ς', 'σ') $$`,
    // The words of a text in order, as the index and the query both cut them.
    `CREATE FUNCTION search_words(value text) RETURNS TABLE (word text, n bigint)
       LANGUAGE sql STABLE PARALLEL SAFE
       AS $$ SELECT m[1], n FROM regexp_matches(search_text(value), '${words}', 'g') WITH ORDINALITY AS r(m, n) $$`,
    // Weights as before: A the title, B the maker and tags, C the description. Words are kept to 500
    // characters (a lexeme holds 2,047 bytes), positions to tsvector's 16,383.
    `CREATE FUNCTION search_document(title text, maker text, tags text, description text) RETURNS tsvector
       LANGUAGE sql STABLE PARALLEL SAFE
       AS $$
         SELECT coalesce(string_agg(lexeme || ':' || least(position, 16383) || weight, ' '), '')::tsvector
         FROM (
           SELECT ${LEXEME.replaceAll('word', 'left(w.word, 500)')} AS lexeme, f.weight,
             row_number() OVER (ORDER BY f.part, w.n) AS position
           FROM (VALUES (1, title, 'A'), (2, maker, 'B'), (3, tags, 'B'), (4, description, 'C'))
             AS f(part, value, weight),
             LATERAL search_words(f.value) AS w
         ) AS words
       $$`,
    // A shopper's words, each a prefix, all required: at most 8 distinct words of at most 40 characters,
    // as searchTerms counts them. No word: an empty query, which matches nothing.
    `CREATE FUNCTION search_query(input text) RETURNS tsquery LANGUAGE sql STABLE PARALLEL SAFE
       AS $$
         SELECT coalesce(string_agg(${LEXEME} || ':*', ' & ' ORDER BY first), '')::tsquery
         FROM (
           SELECT word, first FROM (
             SELECT left(w.word, 40) AS word, min(w.n) AS first FROM search_words(input) AS w GROUP BY 1
           ) AS distinct_words ORDER BY first LIMIT 8
         ) AS chosen
       $$`,
    `CREATE OR REPLACE FUNCTION index_product() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE search_rowid bigint;
     BEGIN
       IF TG_OP IN ('UPDATE', 'DELETE') THEN
         DELETE FROM product_search_ids WHERE product_id = OLD.id;
         DELETE FROM product_facets WHERE product_id = OLD.id;
       END IF;
       IF TG_OP = 'DELETE' THEN
         RETURN NULL;
       END IF;
       INSERT INTO product_search_ids (product_id) VALUES (NEW.id) RETURNING rowid INTO search_rowid;
       INSERT INTO product_search (rowid, document) VALUES (search_rowid,
         search_document(NEW.title, NEW.manufacturer,
           (SELECT coalesce(string_agg(t, ' '), '') FROM jsonb_array_elements_text(NEW.tags) t), NEW.description));
       PERFORM index_product_facets(NEW.id, NEW.manufacturer, NEW.sizes, NEW.colors, NEW.tags);
       RETURN NULL;
     END $$`,
    `CREATE FUNCTION index_product_facets(product text, maker text, sizes jsonb, colors jsonb, tags jsonb)
       RETURNS void LANGUAGE sql AS $$
       INSERT INTO product_facets (kind, value_key, product_id, value)
         SELECT 'manufacturer', btrim(search_fold(maker)), product, btrim(maker)
         WHERE btrim(search_fold(maker)) <> ''
         ON CONFLICT DO NOTHING;
       INSERT INTO product_facets (kind, value_key, product_id, value)
         SELECT 'size', ascii_upper(btrim(v)), product, ascii_upper(btrim(v)) FROM jsonb_array_elements_text(sizes) v
         WHERE btrim(v) <> ''
         ON CONFLICT DO NOTHING;
       INSERT INTO product_facets (kind, value_key, product_id, value)
         SELECT 'color', btrim(search_fold(v)), product, btrim(v) FROM jsonb_array_elements_text(colors) v
         WHERE btrim(search_fold(v)) <> ''
         ON CONFLICT DO NOTHING;
       INSERT INTO product_facets (kind, value_key, product_id, value)
         SELECT 'tag', btrim(search_fold(v)), product, btrim(v) FROM jsonb_array_elements_text(tags) v
         WHERE btrim(search_fold(v)) <> ''
         ON CONFLICT DO NOTHING;
     $$`,
    // Every product again, under the search rowid it has.
    `UPDATE product_search AS s SET document = search_document(p.title, p.manufacturer,
       (SELECT coalesce(string_agg(t, ' '), '') FROM jsonb_array_elements_text(p.tags) t), p.description)
     FROM product_search_ids AS i JOIN products AS p ON p.id = i.product_id
     WHERE i.rowid = s.rowid`,
    `DELETE FROM product_facets`,
    `SELECT index_product_facets(id, manufacturer, sizes, colors, tags) FROM products`,
  ];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const gaps: Gaps = { lower: await lowerCaseGaps(db), nfkc: await normalizationGaps(db) };
  for (const statement of statements(gaps)) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Search words are not undone: restore a backup instead.');
}
