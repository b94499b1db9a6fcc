import { type Kysely, type MigrationResultSet, Migrator } from 'kysely';
import { migrations } from '../../migrations/index.js';
import { postgresMigrations } from '../../migrations/postgres/index.js';

/**
 * Brings the schema up to date; throws with the failing migration's name so start-up stops loudly. Each
 * engine has its own list (migrations/ for SQLite, migrations/postgres/). On PostgreSQL Kysely's migrator
 * holds an advisory lock while it works, so processes that start together on an empty database migrate it
 * once: the others wait, then find nothing left to do.
 */
export async function migrateToLatest<DB>(
  db: Kysely<DB>,
  engine: 'sqlite' | 'postgres' = 'sqlite',
): Promise<MigrationResultSet> {
  const list = engine === 'postgres' ? postgresMigrations : migrations;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => list } });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`);
  }
  return result;
}
