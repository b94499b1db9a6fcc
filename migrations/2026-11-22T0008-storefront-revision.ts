import { type Kysely, sql } from 'kysely';

/**
 * The storefront's answers are cached per `catalogue_version` (see src/http/public-api-cache.ts). Products
 * already move it; product media, the store settings and the version line show on the storefront too, so
 * their changes move it as well, whichever process makes them (admin, CLI import, restore).
 */
const TABLES = ['media', 'settings', 'version_info'] as const;
const EVENTS = ['INSERT', 'UPDATE', 'DELETE'] as const;

const bump = sql.raw(`
  INSERT INTO app_meta (key, value) VALUES ('catalogue_version', '1')
    ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
`);

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    for (const event of EVENTS) {
      await sql`CREATE TRIGGER ${sql.raw(`${table}_revision_${event.toLowerCase()}`)}
        AFTER ${sql.raw(event)} ON ${sql.table(table)} BEGIN ${bump} END`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    for (const event of EVENTS) {
      await sql`DROP TRIGGER IF EXISTS ${sql.raw(`${table}_revision_${event.toLowerCase()}`)}`.execute(db);
    }
  }
}
