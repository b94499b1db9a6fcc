/**
 * Rows written in bulk for the bench's generators: multi-row INSERTs on SQLite (as many rows a statement as
 * its 32,766 parameters allow), and on PostgreSQL one INSERT … SELECT FROM unnest(…) a batch, one array
 * parameter per column, which costs the server about what COPY does (no per-row parsing or planning) and
 * needs no driver beyond the store's own.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import type { BenchEngine } from './bench-database.js';

export type BulkValue = string | number | null;
export type BulkRow = Record<string, BulkValue>;

/** SQLite's default limit on a statement's parameters (SQLITE_MAX_VARIABLE_NUMBER), with room to spare. */
const SQLITE_PARAMETERS = 30_000;
/** Rows per unnest batch on PostgreSQL: big enough to amortise a round trip, small enough to stream. */
const PG_BATCH = 5_000;

/** PostgreSQL's type of each column of a table (udt_name: int8, text, timestamptz, jsonb…). */
async function columnTypes(db: Kysely<Database>, table: string): Promise<Map<string, string>> {
  const { rows } = await sql<{ column_name: string; udt_name: string }>`
    SELECT column_name, udt_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table}`.execute(db);
  return new Map(rows.map((r) => [r.column_name, r.udt_name]));
}

/** Writes `rows` (all with the same columns) into `table`; call it inside a transaction for speed. */
export async function insertRows(
  db: Kysely<Database>,
  engine: BenchEngine,
  table: keyof Database & string,
  rows: readonly BulkRow[],
): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const columnList = sql.join(columns.map((c) => sql.ref(c)));
  if (engine === 'sqlite') {
    const perStatement = Math.max(1, Math.floor(SQLITE_PARAMETERS / columns.length));
    for (let start = 0; start < rows.length; start += perStatement) {
      const values = rows
        .slice(start, start + perStatement)
        .map((row) => sql`(${sql.join(columns.map((c) => row[c] ?? null))})`);
      await sql`INSERT INTO ${sql.table(table)} (${columnList}) VALUES ${sql.join(values)}`.execute(db);
    }
    return;
  }
  const types = await columnTypes(db, table);
  for (let start = 0; start < rows.length; start += PG_BATCH) {
    const batch = rows.slice(start, start + PG_BATCH);
    const arrays = columns.map((c) => {
      const type = types.get(c);
      if (!type) throw new Error(`${table} has no column ${c}`);
      return sql`${batch.map((row) => row[c] ?? null)}::${sql.raw(type)}[]`;
    });
    await sql`INSERT INTO ${sql.table(table)} (${columnList}) SELECT * FROM unnest(${sql.join(arrays)})`.execute(
      db,
    );
  }
}
