/**
 * Which tables of a SQLite store `npm run move-to-postgres` copies, in an order that satisfies the foreign
 * keys, and which it leaves out and why. A table in neither list stops the move: a later migration added it,
 * and copying everything means deciding about it here first.
 */
export const COPIED_TABLES = [
  'admins',
  'admin_sessions',
  // Two-factor sign-in moves with its accounts (the sealed secrets open with the same SESSION_SECRET).
  'admin_recovery_codes',
  'admin_invites',
  // Who changed what (decision 0031): the record moves with the shop.
  'admin_audit',
  'products',
  'media',
  'product_history',
  'sku_renames',
  'orders',
  'order_lines',
  // Sales and codes (decision 0037), then each code's uses by its orders.
  'discounts',
  'discount_redemptions',
  'stripe_events',
  // After orders: an email names its order. Queued emails go out from PostgreSQL once the store runs there.
  'email_outbox',
  'refunds',
  // The phones the owner trusts again after returns to origin (decision 0038).
  'cod_phone_trust',
  'order_events',
  // Returns and exchanges (decision 0039), after the orders and lines they name.
  'returns',
  'return_lines',
  'size_stock',
  'stock_reservations',
  'stock_alerts',
  'catalog_versions',
  'logs',
  'web_vitals',
  'funny_quotes',
  'version_info',
  // The PostgreSQL baseline inserts the settings row, so it is overwritten rather than inserted.
  'settings',
  // Last: the triggers that ran while products were inserted bumped the storefront revision in it.
  'app_meta',
] as const;

export type CopiedTable = (typeof COPIED_TABLES)[number];

/** Copied over a row the target may already hold (see above), keyed by these columns. */
export const UPSERT_KEYS: Partial<Record<CopiedTable, string>> = { settings: 'id', app_meta: 'key' };

/** A target whose other tables hold rows is not empty (the two above are filled by the schema itself). */
export const PRESET_TABLES: ReadonlySet<CopiedTable> = new Set(['settings', 'app_meta']);

export const SKIPPED_TABLES: Record<string, string> = {
  kysely_migration: "each engine keeps its own migrations; the target's are applied by the move",
  kysely_migration_lock: 'the migrator’s own lock',
  job_leases: 'leases of running processes, and none runs during a move',
  product_facets: 'rebuilt by the PostgreSQL triggers as products are inserted',
  product_search_ids: 'rebuilt by the PostgreSQL triggers as products are inserted',
  catalogue_changes: 'the change log of running caches; written again as products are inserted',
  rate_counters: 'short-lived counts of the rate limits; a SQLite store keeps them in memory (decision 0017)',
  dashboard_dirty:
    'marks of the dashboard’s summaries: the triggers mark the copied orders again, and the first read rebuilds',
  dashboard_state:
    'says the summaries are not yet summed (the migration’s row), so the first read rebuilds them',
  dashboard_days: 'rebuilt from the orders at the dashboard’s first read',
  dashboard_months: 'rebuilt from the orders and their lines at the dashboard’s first read',
  dashboard_day_items: 'rebuilt from the orders and their lines at the dashboard’s first read',
  dashboard_day_sizes: 'rebuilt from the orders and their lines at the dashboard’s first read',
  dashboard_month_sizes: 'rebuilt from the orders and their lines at the dashboard’s first read',
  sqlite_sequence: 'SQLite’s AUTOINCREMENT counters; identity sequences are set after the copy',
};

/** SQLite's FTS5 index and its shadow tables: PostgreSQL keeps product_search instead. */
export const SKIPPED_PREFIX = 'products_fts';
