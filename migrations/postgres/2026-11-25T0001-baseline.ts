import { type Kysely, sql } from 'kysely';

/**
 * The store's schema on PostgreSQL, as the SQLite migrations up to 2026-11-25T0014 leave it. A PostgreSQL
 * store starts here (there are no older PostgreSQL stores to upgrade); later changes get a migration in each
 * folder. What differs from SQLite, and why:
 *
 * - ids that count are identity columns; timestamps are timestamptz, flags boolean, JSON columns jsonb with
 *   the same shape checks (the driver reads them back as SQLite's shapes, see db/postgres/connect-postgres.ts);
 * - case-insensitive uniqueness (admin e-mail, SKU) is a unique index on ascii_lower(), SQLite's NOCASE;
 * - full-text search is a tsvector per product in product_search with a GIN index, where SQLite has FTS5:
 *   text is folded as search_fold does on SQLite (NFKC, lower case) and stripped of accents (unaccent), so
 *   the same words match;
 * - the triggers that keep the search index, the facets, the change log and the storefront revision are
 *   PL/pgSQL, with the same rules as the SQLite ones.
 */
const statements = [
  `CREATE EXTENSION IF NOT EXISTS unaccent`,
  // src/shared/search-fold.ts in SQL: NFKC, lower case in every script, combining marks dropped.
  `CREATE FUNCTION search_fold(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
     AS $$ SELECT regexp_replace(lower(normalize(coalesce(value, ''), NFKC)), '[\u0300-\u036f]', '', 'g') $$`,
  // SQLite's NOCASE: A-Z only, so É-1 and é-1 stay two SKUs on both engines.
  `CREATE FUNCTION ascii_lower(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
     AS $$ SELECT translate(value, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') $$`,
  `CREATE FUNCTION ascii_upper(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
     AS $$ SELECT translate(value, 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') $$`,
  // minorToMajorString (src/shared/money.ts) in SQL: 1500 jpy → 1500, 1500 kwd → 1.500, 8900 usd → 89.00.
  `CREATE FUNCTION major_amount(minor bigint, currency text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
     AS $$
       WITH e AS (SELECT CASE
         WHEN lower(currency) IN ('bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx',
           'vnd', 'vuv', 'xaf', 'xof', 'xpf') THEN 0
         WHEN lower(currency) IN ('bhd', 'jod', 'kwd', 'omr', 'tnd') THEN 3
         ELSE 2 END AS n),
       -- lpad cuts longer text short: pad only up to the width the number needs.
       d AS (SELECT n, lpad(abs(minor)::text, greatest(length(abs(minor)::text), n + 1), '0') AS digits FROM e)
       SELECT CASE WHEN minor < 0 THEN '-' ELSE '' END
         || left(digits, length(digits) - n)
         || CASE WHEN n > 0 THEN '.' || right(digits, n) ELSE '' END
       FROM d
     $$`,
  `CREATE TABLE products (
     id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
     title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
     description text NOT NULL DEFAULT '',
     manufacturer text NOT NULL DEFAULT '',
     manufacturer_url text,
     sku text NOT NULL,
     price_minor bigint NOT NULL CHECK (price_minor >= 0),
     currency text NOT NULL DEFAULT 'usd' CHECK (length(currency) = 3 AND currency = lower(currency)),
     sizes jsonb NOT NULL DEFAULT '["S","M","L","XL"]' CHECK (jsonb_typeof(sizes) = 'array'),
     size_detail jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(size_detail) = 'object'),
     colors jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(colors) = 'array'),
     tags jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(tags) = 'array'),
     image_folder text,
     images jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(images) = 'array'),
     stripe_payment_link text,
     product_link text,
     page_order integer NOT NULL DEFAULT 999,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL,
     slug text NOT NULL DEFAULT ''
   )`,
  `CREATE INDEX products_created_at ON products (created_at, id)`,
  `CREATE INDEX products_page_order ON products (page_order, id)`,
  `CREATE INDEX products_price ON products (price_minor, id)`,
  `CREATE INDEX products_slug ON products (slug)`,
  `CREATE UNIQUE INDEX products_sku_unique ON products (ascii_lower(sku)) WHERE btrim(sku) <> ''`,
  `CREATE TABLE media (
     id text PRIMARY KEY,
     product_id text NOT NULL REFERENCES products (id) ON DELETE CASCADE,
     url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
     file_name text NOT NULL CHECK (length(file_name) BETWEEN 1 AND 255),
     media_type text NOT NULL DEFAULT 'image' CHECK (media_type IN ('image', 'pdf', 'txt', 'video')),
     display_order integer NOT NULL DEFAULT 0,
     alt_text text,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL,
     storage_key text,
     content_type text,
     byte_size bigint,
     width integer,
     height integer,
     variants jsonb NOT NULL DEFAULT '[]'
   )`,
  `CREATE INDEX media_product_order ON media (product_id, display_order)`,
  `CREATE TABLE settings (
     id integer PRIMARY KEY CHECK (id = 1),
     store_name text NOT NULL DEFAULT 'My Store',
     tagline text NOT NULL DEFAULT '',
     about_text text NOT NULL DEFAULT '',
     disclaimer text NOT NULL DEFAULT '',
     credits jsonb NOT NULL DEFAULT '[]',
     special_order_url text,
     contact_url text,
     banner_title text,
     banner_description text,
     banner_image_url text,
     banner_active boolean NOT NULL DEFAULT false,
     updated_at timestamptz NOT NULL,
     shipping_countries jsonb NOT NULL DEFAULT '["US","CA","GB","AU","PK","AE"]'
       CHECK (jsonb_typeof(shipping_countries) = 'array'),
     shipping_options jsonb NOT NULL
       DEFAULT '[{"label":"Standard shipping","amountMinor":0,"currency":"usd","minDays":5,"maxDays":10}]'
       CHECK (jsonb_typeof(shipping_options) = 'array')
   )`,
  `INSERT INTO settings (id, updated_at) VALUES (1, now())`,
  `CREATE TABLE funny_quotes (
     id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     quote text NOT NULL CHECK (length(quote) BETWEEN 1 AND 1000),
     author text NOT NULL DEFAULT '',
     created_at timestamptz NOT NULL
   )`,
  `CREATE TABLE version_info (
     id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     version text NOT NULL,
     environment text NOT NULL DEFAULT 'production',
     notes text,
     updated_at timestamptz NOT NULL
   )`,
  `CREATE TABLE app_meta (key text PRIMARY KEY, value text NOT NULL)`,
  `CREATE TABLE catalogue_changes (
     seq bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     product_id text NOT NULL
   )`,
  `CREATE TABLE admins (
     id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
     password_hash text NOT NULL,
     session_epoch integer NOT NULL DEFAULT 0,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL,
     last_login_at timestamptz
   )`,
  `CREATE UNIQUE INDEX admins_email_unique ON admins (ascii_lower(email))`,
  `CREATE TABLE admin_sessions (
     id text PRIMARY KEY CHECK (length(id) BETWEEN 16 AND 64),
     admin_id bigint NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
     epoch integer NOT NULL,
     created_at timestamptz NOT NULL,
     last_seen_at timestamptz NOT NULL,
     revoked_at timestamptz,
     revoked_reason text,
     user_agent text CHECK (length(user_agent) <= 512),
     created_ip text,
     last_seen_ip text
   )`,
  `CREATE INDEX admin_sessions_admin ON admin_sessions (admin_id, last_seen_at)`,
  `CREATE TABLE product_facets (
     kind text NOT NULL CHECK (kind IN ('manufacturer', 'size', 'color', 'tag')),
     value_key text NOT NULL,
     product_id text NOT NULL,
     value text NOT NULL,
     PRIMARY KEY (kind, value_key, product_id)
   )`,
  `CREATE INDEX product_facets_product ON product_facets (product_id, kind)`,
  // Keyed like FTS5's rowid: a product gets a new one each time it is indexed (newest indexed first).
  `CREATE TABLE product_search_ids (
     rowid bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     product_id text NOT NULL UNIQUE
   )`,
  `CREATE TABLE product_search (
     rowid bigint PRIMARY KEY REFERENCES product_search_ids (rowid) ON DELETE CASCADE,
     document tsvector NOT NULL
   )`,
  `CREATE INDEX product_search_document ON product_search USING gin (document)`,
  `CREATE TABLE orders (
     id text PRIMARY KEY,
     number bigint NOT NULL UNIQUE,
     status text NOT NULL DEFAULT 'pending'
       CHECK (status IN ('pending', 'processing', 'paid', 'payment_failed', 'expired')),
     payment_mode text NOT NULL CHECK (payment_mode IN ('stripe', 'demo')),
     currency text NOT NULL CHECK (length(currency) = 3 AND currency = lower(currency)),
     subtotal_minor bigint NOT NULL CHECK (subtotal_minor >= 0),
     total_minor bigint CHECK (total_minor IS NULL OR total_minor >= 0),
     customer_email text,
     customer_name text,
     shipping_address jsonb,
     billing_address jsonb,
     stripe_session_id text UNIQUE,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL,
     paid_at timestamptz
   )`,
  `CREATE INDEX orders_created ON orders (created_at)`,
  `CREATE INDEX orders_status_created ON orders (status, created_at)`,
  `CREATE TABLE order_lines (
     id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     order_id text NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
     product_id text NOT NULL,
     title text NOT NULL,
     size text,
     quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 10),
     unit_price_minor bigint NOT NULL CHECK (unit_price_minor >= 0),
     line_total_minor bigint NOT NULL CHECK (line_total_minor >= 0),
     image_url text
   )`,
  `CREATE INDEX order_lines_order ON order_lines (order_id)`,
  `CREATE TABLE stripe_events (
     id text PRIMARY KEY,
     type text NOT NULL,
     order_id text,
     outcome text NOT NULL,
     received_at timestamptz NOT NULL
   )`,
  `CREATE INDEX stripe_events_order ON stripe_events (order_id, received_at)`,
  `CREATE TABLE product_history (
     id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     product_id text NOT NULL,
     product_title text NOT NULL,
     action text NOT NULL CHECK (action IN ('create', 'update', 'delete')),
     admin_email text NOT NULL,
     snapshot jsonb NOT NULL,
     changes jsonb NOT NULL DEFAULT '[]',
     created_at timestamptz NOT NULL
   )`,
  `CREATE INDEX product_history_product ON product_history (product_id, created_at)`,
  `CREATE TABLE logs (
     id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     time timestamptz NOT NULL,
     level text NOT NULL CHECK (level IN ('info', 'warning', 'error')),
     source text NOT NULL,
     message text NOT NULL,
     details jsonb NOT NULL DEFAULT '{}',
     request_id text,
     repeat_count integer NOT NULL DEFAULT 1,
     last_time timestamptz NOT NULL
   )`,
  `CREATE INDEX logs_level ON logs (level, id)`,
  `CREATE INDEX logs_source ON logs (source, id)`,
  `CREATE INDEX logs_time ON logs (time)`,
  `CREATE TABLE web_vitals (
     id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     time timestamptz NOT NULL,
     metric text NOT NULL CHECK (metric IN ('LCP', 'CLS', 'INP', 'FCP', 'TTFB')),
     value double precision NOT NULL,
     route text NOT NULL,
     navigation_type text
   )`,
  `CREATE INDEX web_vitals_time ON web_vitals (time)`,
  `CREATE TABLE catalog_versions (
     id text PRIMARY KEY,
     label text NOT NULL DEFAULT '' CHECK (length(label) <= 200),
     file_name text NOT NULL UNIQUE,
     storage_key text NOT NULL UNIQUE CHECK (storage_key LIKE 'catalogs/%'),
     tags jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(tags) = 'array'),
     is_active boolean NOT NULL DEFAULT false,
     kind text NOT NULL DEFAULT 'export' CHECK (kind IN ('export', 'backup')),
     product_count integer NOT NULL DEFAULT 0,
     byte_size bigint NOT NULL DEFAULT 0,
     checksum text NOT NULL DEFAULT '',
     created_by text,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL
   )`,
  `CREATE INDEX catalog_versions_created ON catalog_versions (created_at, id)`,
  `CREATE UNIQUE INDEX catalog_versions_one_active ON catalog_versions (is_active) WHERE is_active`,
  `CREATE TABLE sku_renames (
     id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     product_id text NOT NULL,
     product_title text NOT NULL,
     old_sku text NOT NULL,
     new_sku text NOT NULL,
     kept_by_product_id text NOT NULL,
     renamed_at timestamptz NOT NULL
   )`,

  // Any change to what the storefront shows moves the revision its caches are keyed by, and tells every
  // process at commit (NOTIFY is delivered only when the transaction commits).
  `CREATE FUNCTION bump_storefront_revision() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE next text;
   BEGIN
     INSERT INTO app_meta (key, value) VALUES ('storefront_revision', '1')
       ON CONFLICT (key) DO UPDATE SET value = (app_meta.value::bigint + 1)::text
       RETURNING value INTO next;
     PERFORM pg_notify('storefront_revision', next);
     RETURN NULL;
   END $$`,
  ...['products', 'media', 'settings', 'version_info'].map(
    (table) => `CREATE TRIGGER ${table}_revision AFTER INSERT OR UPDATE OR DELETE ON ${table}
       FOR EACH STATEMENT EXECUTE FUNCTION bump_storefront_revision()`,
  ),

  // The change log the facet snapshots catch up from; it keeps the last 10,000 entries.
  `CREATE FUNCTION log_catalogue_change() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP IN ('UPDATE', 'DELETE') THEN
       INSERT INTO catalogue_changes (product_id) VALUES (OLD.id);
     END IF;
     IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.id IS DISTINCT FROM OLD.id) THEN
       INSERT INTO catalogue_changes (product_id) VALUES (NEW.id);
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER products_catalogue_changes AFTER INSERT OR UPDATE OR DELETE ON products
     FOR EACH ROW EXECUTE FUNCTION log_catalogue_change()`,
  `CREATE FUNCTION trim_catalogue_changes() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.seq % 1000 = 0 THEN
       DELETE FROM catalogue_changes WHERE seq <= NEW.seq - 10000;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER catalogue_changes_trim AFTER INSERT ON catalogue_changes
     FOR EACH ROW EXECUTE FUNCTION trim_catalogue_changes()`,

  // The search document and the facet rows of a product, rebuilt only when a searchable field changed.
  `CREATE FUNCTION search_text(value text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE
     AS $$ SELECT unaccent(search_fold(value)) $$`,
  `CREATE FUNCTION index_product() RETURNS trigger LANGUAGE plpgsql AS $$
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
       setweight(to_tsvector('simple', search_text(NEW.title)), 'A') ||
       setweight(to_tsvector('simple', search_text(NEW.manufacturer)), 'B') ||
       setweight(to_tsvector('simple', search_text(
         (SELECT coalesce(string_agg(t, ' '), '') FROM jsonb_array_elements_text(NEW.tags) t))), 'B') ||
       setweight(to_tsvector('simple', search_text(NEW.description)), 'C'));
     INSERT INTO product_facets (kind, value_key, product_id, value)
       SELECT 'manufacturer', btrim(search_fold(NEW.manufacturer)), NEW.id, btrim(NEW.manufacturer)
       WHERE btrim(search_fold(NEW.manufacturer)) <> ''
       ON CONFLICT DO NOTHING;
     INSERT INTO product_facets (kind, value_key, product_id, value)
       SELECT 'size', ascii_upper(btrim(v)), NEW.id, ascii_upper(btrim(v)) FROM jsonb_array_elements_text(NEW.sizes) v
       WHERE btrim(v) <> ''
       ON CONFLICT DO NOTHING;
     INSERT INTO product_facets (kind, value_key, product_id, value)
       SELECT 'color', btrim(search_fold(v)), NEW.id, btrim(v) FROM jsonb_array_elements_text(NEW.colors) v
       WHERE btrim(search_fold(v)) <> ''
       ON CONFLICT DO NOTHING;
     INSERT INTO product_facets (kind, value_key, product_id, value)
       SELECT 'tag', btrim(search_fold(v)), NEW.id, btrim(v) FROM jsonb_array_elements_text(NEW.tags) v
       WHERE btrim(search_fold(v)) <> ''
       ON CONFLICT DO NOTHING;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER products_index_insert AFTER INSERT OR DELETE ON products
     FOR EACH ROW EXECUTE FUNCTION index_product()`,
  `CREATE TRIGGER products_index_update AFTER UPDATE OF id, title, description, manufacturer, tags, sizes, colors
     ON products FOR EACH ROW
     WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.title IS DISTINCT FROM NEW.title
       OR OLD.description IS DISTINCT FROM NEW.description OR OLD.manufacturer IS DISTINCT FROM NEW.manufacturer
       OR OLD.tags IS DISTINCT FROM NEW.tags OR OLD.sizes IS DISTINCT FROM NEW.sizes
       OR OLD.colors IS DISTINCT FROM NEW.colors)
     EXECUTE FUNCTION index_product()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('The PostgreSQL baseline is not undone: restore a backup instead.');
}
