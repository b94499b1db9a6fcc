import { type Kysely, sql } from 'kysely';

// Frozen once landed: add a new migration instead of editing this one.
/**
 * The counter that moves on every change the storefront shows was stored as `catalogue_version`, a name
 * that reads like the catalogue's YAML versions (catalog_versions). It becomes `storefront_revision`, and
 * the triggers that move it are named `<table>_revision_<event>`. The value is kept, so caches keyed by it
 * stay valid across the upgrade.
 */
const TABLES = ['products', 'media', 'settings', 'version_info'] as const;
const EVENTS = ['insert', 'update', 'delete'] as const;

function bumpOf(key: string) {
  return sql.raw(`
    INSERT INTO app_meta (key, value) VALUES ('${key}', '1')
      ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
  `);
}

async function recreateTriggers(db: Kysely<unknown>, key: string, productsName: string): Promise<void> {
  for (const table of TABLES) {
    for (const event of EVENTS) {
      const names =
        table === 'products'
          ? [`products_version_${event}`, `products_revision_${event}`]
          : [`${table}_revision_${event}`];
      for (const name of names) await sql`DROP TRIGGER IF EXISTS ${sql.raw(name)}`.execute(db);
      const name = table === 'products' ? `${productsName}_${event}` : `${table}_revision_${event}`;
      await sql`CREATE TRIGGER ${sql.raw(name)} AFTER ${sql.raw(event.toUpperCase())} ON ${sql.table(table)}
        BEGIN ${bumpOf(key)} END`.execute(db);
    }
  }
}

async function renameKey(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  await sql`
    INSERT INTO app_meta (key, value)
      SELECT ${to}, value FROM app_meta WHERE key = ${from}
      ON CONFLICT (key) DO UPDATE SET value = excluded.value
  `.execute(db);
  await sql`DELETE FROM app_meta WHERE key = ${from}`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await renameKey(db, 'catalogue_version', 'storefront_revision');
  await recreateTriggers(db, 'storefront_revision', 'products_revision');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await renameKey(db, 'storefront_revision', 'catalogue_version');
  await recreateTriggers(db, 'catalogue_version', 'products_version');
}
