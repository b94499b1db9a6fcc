import type SQLite from 'better-sqlite3';
import { migrations } from '../../migrations/index.js';
import { postgresMigrations } from '../../migrations/postgres/index.js';

/** The migrations this build knows, in the order they run (the bundled list, as the server uses). */
export const knownMigrations: readonly string[] = Object.keys(migrations).sort();
const knownPostgresMigrations: readonly string[] = Object.keys(postgresMigrations).sort();

/** The migrations this build knows for an engine. */
export function knownMigrationNames(engine: 'sqlite' | 'postgres'): readonly string[] {
  return engine === 'postgres' ? knownPostgresMigrations : knownMigrations;
}

/** Migrations recorded in a database (Kysely's table); none when it was never migrated. */
export function appliedMigrations(sqlite: SQLite.Database): string[] {
  const table = sqlite
    .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'kysely_migration'")
    .get();
  if (!table) return [];
  return sqlite.prepare<[], string>('SELECT name FROM kysely_migration ORDER BY name').pluck().all();
}

export type SchemaComparison = {
  /** Known here but not applied yet: the next start applies them. */
  pending: string[];
  /** Applied but unknown to this build: the data comes from newer code. */
  unknown: string[];
};

export function compareSchema(
  applied: readonly string[],
  engine: 'sqlite' | 'postgres' = 'sqlite',
): SchemaComparison {
  const list = knownMigrationNames(engine);
  const known = new Set(list);
  const done = new Set(applied);
  return {
    pending: list.filter((m) => !done.has(m)),
    unknown: applied.filter((m) => !known.has(m)),
  };
}

/** PRAGMA integrity_check's verdict: null when the file is sound, else the first problems it names. */
export function integrityProblem(sqlite: SQLite.Database): string | null {
  const rows = sqlite.prepare<[], string>('PRAGMA integrity_check').pluck().all();
  if (rows.length === 1 && rows[0] === 'ok') return null;
  return rows.slice(0, 3).join('; ') || 'integrity_check returned nothing';
}
