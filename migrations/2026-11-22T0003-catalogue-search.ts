import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
// Search and facets for the storefront, kept in step with products by triggers so that every writer
// (admin, import, demo, a hand-run SQL statement) keeps them right.

/** A copy of the app's slug rule at the time of this migration (migrations import nothing from the app). */
function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // Slugs for /products/:slug, written by the app on every title change.
  await sql`ALTER TABLE products ADD COLUMN slug TEXT NOT NULL DEFAULT ''`.execute(db);
  const rows = await sql<{ id: string; title: string }>`SELECT id, title FROM products`.execute(db);
  for (const r of rows.rows) {
    await sql`UPDATE products SET slug = ${slugify(r.title)} WHERE id = ${r.id}`.execute(db);
  }
  await sql`CREATE INDEX products_slug ON products (slug)`.execute(db);

  // FTS5 needs integer rowids; product ids are text, so a small table gives each product a stable number
  // (AUTOINCREMENT: a number is never reused). No foreign keys here or on product_facets: a cascade would
  // run before the AFTER DELETE trigger and leave the FTS row behind; the triggers keep all three in step.
  await sql`
    CREATE TABLE product_search_ids (
      rowid INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id TEXT NOT NULL UNIQUE
    )
  `.execute(db);
  await sql`
    CREATE VIRTUAL TABLE products_fts USING fts5(
      title, description, manufacturer, tags,
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '2 3'
    )
  `.execute(db);

  // One row per (kind, value) a product can be filtered by; value_key is the case-folded value.
  await sql`
    CREATE TABLE product_facets (
      kind TEXT NOT NULL CHECK (kind IN ('manufacturer', 'size', 'color', 'tag')),
      value_key TEXT NOT NULL,
      product_id TEXT NOT NULL,
      value TEXT NOT NULL,
      PRIMARY KEY (kind, value_key, product_id)
    ) WITHOUT ROWID
  `.execute(db);
  await sql`CREATE INDEX product_facets_product ON product_facets (product_id, kind)`.execute(db);

  const index = (row: 'new') =>
    sql.raw(`
    INSERT INTO product_search_ids (product_id) VALUES (${row}.id);
    INSERT INTO products_fts (rowid, title, description, manufacturer, tags)
      VALUES (last_insert_rowid(), ${row}.title, ${row}.description, ${row}.manufacturer,
              (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(${row}.tags)));
    INSERT OR IGNORE INTO product_facets (kind, value_key, product_id, value)
      SELECT 'manufacturer', lower(trim(${row}.manufacturer)), ${row}.id, trim(${row}.manufacturer)
      WHERE trim(${row}.manufacturer) <> '';
    INSERT OR IGNORE INTO product_facets (kind, value_key, product_id, value)
      SELECT 'size', upper(trim(value)), ${row}.id, upper(trim(value)) FROM json_each(${row}.sizes)
      WHERE trim(value) <> '';
    INSERT OR IGNORE INTO product_facets (kind, value_key, product_id, value)
      SELECT 'color', lower(trim(value)), ${row}.id, trim(value) FROM json_each(${row}.colors)
      WHERE trim(value) <> '';
    INSERT OR IGNORE INTO product_facets (kind, value_key, product_id, value)
      SELECT 'tag', lower(trim(value)), ${row}.id, trim(value) FROM json_each(${row}.tags)
      WHERE trim(value) <> '';
  `);
  const unindex = (row: 'old') =>
    sql.raw(`
    DELETE FROM products_fts WHERE rowid = (SELECT rowid FROM product_search_ids WHERE product_id = ${row}.id);
    DELETE FROM product_search_ids WHERE product_id = ${row}.id;
    DELETE FROM product_facets WHERE product_id = ${row}.id;
  `);

  await sql`CREATE TRIGGER products_search_insert AFTER INSERT ON products BEGIN ${index('new')} END`.execute(
    db,
  );
  await sql`CREATE TRIGGER products_search_delete AFTER DELETE ON products BEGIN ${unindex('old')} END`.execute(
    db,
  );
  await sql`
    CREATE TRIGGER products_search_update
    AFTER UPDATE OF id, title, description, manufacturer, tags, sizes, colors ON products
    BEGIN ${unindex('old')} ${index('new')} END
  `.execute(db);

  // A counter that moves on every product change, so caches of derived answers (facet counts) can tell
  // they are stale, whichever process made the change.
  const bump = sql.raw(`
    INSERT INTO app_meta (key, value) VALUES ('catalogue_version', '1')
      ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
  `);
  for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
    await sql`CREATE TRIGGER ${sql.raw(`products_version_${event.toLowerCase()}`)} AFTER ${sql.raw(event)} ON products
      BEGIN ${bump} END`.execute(db);
  }

  // Index what is already there.
  await sql`INSERT INTO product_search_ids (product_id) SELECT id FROM products ORDER BY rowid`.execute(db);
  await sql`
    INSERT INTO products_fts (rowid, title, description, manufacturer, tags)
    SELECT s.rowid, p.title, p.description, p.manufacturer,
           (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(p.tags))
    FROM products p JOIN product_search_ids s ON s.product_id = p.id
  `.execute(db);
  for (const [kind, fold, source] of [
    ['size', 'upper', 'sizes'],
    ['color', 'lower', 'colors'],
    ['tag', 'lower', 'tags'],
  ] as const) {
    const valueExpr = kind === 'size' ? 'upper(trim(j.value))' : 'trim(j.value)';
    await sql
      .raw(`
        INSERT OR IGNORE INTO product_facets (kind, value_key, product_id, value)
        SELECT '${kind}', ${fold}(trim(j.value)), p.id, ${valueExpr} FROM products p, json_each(p.${source}) j
        WHERE trim(j.value) <> ''
      `)
      .execute(db);
  }
  await sql`
    INSERT OR IGNORE INTO product_facets (kind, value_key, product_id, value)
    SELECT 'manufacturer', lower(trim(manufacturer)), id, trim(manufacturer) FROM products
    WHERE trim(manufacturer) <> ''
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'products_version_insert',
    'products_version_update',
    'products_version_delete',
    'products_search_update',
    'products_search_delete',
    'products_search_insert',
  ]) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(t)}`.execute(db);
  }
  await sql`DROP TABLE IF EXISTS product_facets`.execute(db);
  await sql`DROP TABLE IF EXISTS products_fts`.execute(db);
  await sql`DROP TABLE IF EXISTS product_search_ids`.execute(db);
  await sql`DROP INDEX IF EXISTS products_slug`.execute(db);
  await sql`ALTER TABLE products DROP COLUMN slug`.execute(db);
}
