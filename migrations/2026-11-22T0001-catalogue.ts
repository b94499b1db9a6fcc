import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE products (
      id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 100),
      title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
      description TEXT NOT NULL DEFAULT '',
      manufacturer TEXT NOT NULL DEFAULT '',
      manufacturer_url TEXT,
      sku TEXT NOT NULL,
      price_minor INTEGER NOT NULL CHECK (price_minor >= 0),
      currency TEXT NOT NULL DEFAULT 'usd' CHECK (length(currency) = 3 AND currency = lower(currency)),
      sizes TEXT NOT NULL DEFAULT '["S","M","L","XL"]' CHECK (json_valid(sizes) AND json_type(sizes) = 'array'),
      size_detail TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(size_detail) AND json_type(size_detail) = 'object'),
      colors TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(colors) AND json_type(colors) = 'array'),
      tags TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags) AND json_type(tags) = 'array'),
      image_folder TEXT,
      images TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(images) AND json_type(images) = 'array'),
      stripe_payment_link TEXT,
      product_link TEXT,
      page_order INTEGER NOT NULL DEFAULT 999,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX products_page_order ON products (page_order, id)`.execute(db);
  await sql`CREATE INDEX products_created_at ON products (created_at, id)`.execute(db);
  await sql`CREATE INDEX products_price ON products (price_minor, id)`.execute(db);

  await sql`
    CREATE TABLE media (
      id TEXT PRIMARY KEY NOT NULL,
      product_id TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      url TEXT NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
      file_name TEXT NOT NULL CHECK (length(file_name) BETWEEN 1 AND 255),
      media_type TEXT NOT NULL DEFAULT 'image' CHECK (media_type IN ('image', 'pdf', 'txt', 'video')),
      display_order INTEGER NOT NULL DEFAULT 0,
      alt_text TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT
  `.execute(db);
  await sql`CREATE INDEX media_product_order ON media (product_id, display_order)`.execute(db);

  // One row (id = 1) holds the store's settings; the check keeps it that way.
  await sql`
    CREATE TABLE settings (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      store_name TEXT NOT NULL DEFAULT 'My Store',
      tagline TEXT NOT NULL DEFAULT '',
      about_text TEXT NOT NULL DEFAULT '',
      disclaimer TEXT NOT NULL DEFAULT '',
      credits TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(credits)),
      special_order_url TEXT,
      contact_url TEXT,
      banner_title TEXT,
      banner_description TEXT,
      banner_image_url TEXT,
      banner_active INTEGER NOT NULL DEFAULT 0 CHECK (banner_active IN (0, 1)),
      updated_at TEXT NOT NULL
    ) STRICT
  `.execute(db);
  await sql`INSERT INTO settings (id, updated_at) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`.execute(
    db,
  );

  await sql`
    CREATE TABLE funny_quotes (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      quote TEXT NOT NULL CHECK (length(quote) BETWEEN 1 AND 1000),
      author TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL
    ) STRICT
  `.execute(db);

  await sql`
    CREATE TABLE version_info (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      version TEXT NOT NULL,
      environment TEXT NOT NULL DEFAULT 'production',
      notes TEXT,
      updated_at TEXT NOT NULL
    ) STRICT
  `.execute(db);

  // Small key/value facts about this installation (e.g. that the demo catalogue was offered once).
  await sql`CREATE TABLE app_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) STRICT`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['app_meta', 'version_info', 'funny_quotes', 'settings', 'media', 'products']) {
    await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
  }
}
