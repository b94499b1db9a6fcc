import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
/**
 * Search text and facet keys folded by search_fold(): the app's foldForSearch (NFKC, full lower-casing,
 * leftover combining diacritics dropped), which openDatabase registers on every connection. The shopper's
 * query is folded by the same function, so 'fine' finds 'ﬁne', 'kurta' finds 'ＫＵＲＴＡ' and 'İstanbul'
 * finds itself; before, the query was folded and the index was not. See decision 0011.
 * The triggers are 0003's and 0010's statements with the fold added (same columns, same WHEN clause). Existing products
 * are indexed again under their own full-text rowids, so relevance ranking's window (decision 0009) keeps
 * its order.
 */
const COLUMNS = ['id', 'title', 'description', 'manufacturer', 'tags', 'sizes', 'colors'] as const;

/** How search text and facet keys are built: folded (up) or as migrations 0003 and 0010 built them (down). */
type Rule = { text: (expr: string) => string; key: (expr: string) => string };
const FOLDED: Rule = { text: (e) => `search_fold(${e})`, key: (e) => `trim(search_fold(${e}))` };
const PLAIN: Rule = { text: (e) => e, key: (e) => `lower(trim(${e}))` };

/**
 * The statements that index products: in a trigger the row `new` (its search id just inserted), in bulk
 * every product with its existing search id.
 */
function indexStatements(rule: Rule, target: 'new' | 'all'): string[] {
  const row = target === 'new' ? 'new' : 'p';
  const rowid = target === 'new' ? 'last_insert_rowid()' : 's.rowid';
  // In bulk the text joins each product's search id; facet rows need only the product.
  const textFrom = target === 'new' ? '' : 'FROM products p JOIN product_search_ids s ON s.product_id = p.id';
  const from = (...lists: string[]) => {
    const sources = target === 'new' ? lists : ['products p', ...lists];
    return sources.length === 0 ? '' : `FROM ${sources.join(', ')}`;
  };
  const facets = 'INSERT OR IGNORE INTO product_facets (kind, value_key, product_id, value)';
  const maker = `${row}.manufacturer`;
  // A value whose key folds to nothing gets no row: no filter could choose it (0003 tested trim() instead).
  const listed = (kind: string, column: string) =>
    `${facets} SELECT '${kind}', ${rule.key('j.value')}, ${row}.id, trim(j.value)
       ${from(`json_each(${row}.${column}) j`)} WHERE ${rule.key('j.value')} <> ''`;
  return [
    `INSERT INTO products_fts (rowid, title, description, manufacturer, tags)
       SELECT ${rowid}, ${rule.text(`${row}.title`)}, ${rule.text(`${row}.description`)}, ${rule.text(maker)},
         ${rule.text(`(SELECT coalesce(group_concat(value, ' '), '') FROM json_each(${row}.tags))`)} ${textFrom}`,
    `${facets} SELECT 'manufacturer', ${rule.key(maker)}, ${row}.id, trim(${maker}) ${from()}
       WHERE ${rule.key(maker)} <> ''`,
    `${facets} SELECT 'size', upper(trim(j.value)), ${row}.id, upper(trim(j.value))
       ${from(`json_each(${row}.sizes) j`)} WHERE trim(j.value) <> ''`,
    listed('color', 'colors'),
    listed('tag', 'tags'),
  ];
}

async function createTriggers(db: Kysely<unknown>, rule: Rule): Promise<void> {
  const unindex = `
    DELETE FROM products_fts WHERE rowid = (SELECT rowid FROM product_search_ids WHERE product_id = old.id);
    DELETE FROM product_search_ids WHERE product_id = old.id;
    DELETE FROM product_facets WHERE product_id = old.id;`;
  const index = `
    INSERT INTO product_search_ids (product_id) VALUES (new.id);
    ${indexStatements(rule, 'new').join(';\n')};`;
  const changed = COLUMNS.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ');
  await sql`DROP TRIGGER IF EXISTS products_search_insert`.execute(db);
  await sql`DROP TRIGGER IF EXISTS products_search_update`.execute(db);
  await sql`CREATE TRIGGER products_search_insert AFTER INSERT ON products BEGIN ${sql.raw(index)} END`.execute(
    db,
  );
  await sql`
    CREATE TRIGGER products_search_update
    AFTER UPDATE OF ${sql.raw(COLUMNS.join(', '))} ON products WHEN ${sql.raw(changed)}
    BEGIN ${sql.raw(unindex)} ${sql.raw(index)} END
  `.execute(db);
}

/** Indexes every product again, each under its own search rowid. */
async function reindexAll(db: Kysely<unknown>, rule: Rule): Promise<void> {
  // Dropped and made again with 0003's definition: faster than deleting each row, which re-reads its text.
  await sql`DROP TABLE products_fts`.execute(db);
  await sql`
    CREATE VIRTUAL TABLE products_fts USING fts5(
      title, description, manufacturer, tags,
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '2 3'
    )
  `.execute(db);
  await sql`DELETE FROM product_facets`.execute(db);
  for (const statement of indexStatements(rule, 'all')) await sql.raw(statement).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // Fail with the reason rather than with "no such function" from the first product write.
  try {
    await sql`SELECT search_fold('x')`.execute(db);
  } catch (error) {
    throw new Error(
      `search_fold() is not registered on this connection: open the database with openDatabase() (src/db/connect.ts). ${String(error)}`,
    );
  }
  await createTriggers(db, FOLDED);
  await reindexAll(db, FOLDED);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await createTriggers(db, PLAIN);
  await reindexAll(db, PLAIN);
}
