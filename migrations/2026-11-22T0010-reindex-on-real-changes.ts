import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
/**
 * Re-index a product (full-text row, search rowid, facet rows) only when a column they are built from
 * actually changes. SQLite fires `UPDATE OF col` whenever the column is in the SET clause, and the admin
 * form sets every column, so a price-only save rewrote the product's search rows and gave it a new rowid:
 * relevance ranking's "newest matches" window (decision 0009) would reshuffle on price edits.
 * The statements are migration 0003's, unchanged; only the WHEN clause is new.
 */
const COLUMNS = ['id', 'title', 'description', 'manufacturer', 'tags', 'sizes', 'colors'] as const;

const reindex = sql.raw(`
  DELETE FROM products_fts WHERE rowid = (SELECT rowid FROM product_search_ids WHERE product_id = old.id);
  DELETE FROM product_search_ids WHERE product_id = old.id;
  DELETE FROM product_facets WHERE product_id = old.id;
  INSERT INTO product_search_ids (product_id) VALUES (new.id);
  INSERT INTO products_fts (rowid, title, description, manufacturer, tags)
    VALUES (last_insert_rowid(), new.title, new.description, new.manufacturer,
            (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(new.tags)));
  INSERT OR IGNORE INTO product_facets (kind, value_key, product_id, value)
    SELECT 'manufacturer', lower(trim(new.manufacturer)), new.id, trim(new.manufacturer)
    WHERE trim(new.manufacturer) <> '';
  INSERT OR IGNORE INTO product_facets (kind, value_key, product_id, value)
    SELECT 'size', upper(trim(value)), new.id, upper(trim(value)) FROM json_each(new.sizes)
    WHERE trim(value) <> '';
  INSERT OR IGNORE INTO product_facets (kind, value_key, product_id, value)
    SELECT 'color', lower(trim(value)), new.id, trim(value) FROM json_each(new.colors)
    WHERE trim(value) <> '';
  INSERT OR IGNORE INTO product_facets (kind, value_key, product_id, value)
    SELECT 'tag', lower(trim(value)), new.id, trim(value) FROM json_each(new.tags)
    WHERE trim(value) <> '';
`);

async function create(db: Kysely<unknown>, onlyWhenChanged: boolean): Promise<void> {
  const when = onlyWhenChanged
    ? sql.raw(`WHEN ${COLUMNS.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')}`)
    : sql.raw('');
  await sql`DROP TRIGGER IF EXISTS products_search_update`.execute(db);
  await sql`
    CREATE TRIGGER products_search_update
    AFTER UPDATE OF ${sql.raw(COLUMNS.join(', '))} ON products ${when}
    BEGIN ${reindex} END
  `.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await create(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await create(db, false);
}
