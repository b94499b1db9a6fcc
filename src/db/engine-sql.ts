import { type Expression, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { DbOrTx } from './database.js';

/**
 * The few places where SQLite and PostgreSQL spell a query differently, in one file. Everything else the
 * store writes through Kysely reads the same on both.
 */
export type Engine = 'sqlite' | 'postgres';

export function engineOf(db: DbOrTx): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** `a = b` ignoring the case of A-Z only, as SQLite's NOCASE (and the unique indexes) compare. */
export function equalsNoCase(db: DbOrTx, column: RawBuilder<unknown> | Expression<unknown>, value: string) {
  return engineOf(db) === 'postgres'
    ? sql<boolean>`ascii_lower(${column}) = ascii_lower(${value})`
    : sql<boolean>`${column} = ${value} COLLATE NOCASE`;
}

/** The elements of a JSON array column as rows with a `value` column, for EXISTS (SELECT … FROM …). */
export function jsonArrayValues(db: DbOrTx, column: RawBuilder<unknown>) {
  return engineOf(db) === 'postgres'
    ? sql`jsonb_array_elements_text(${column}) AS t(value)`
    : sql`json_each(${column}) t`;
}

/** The later of a timestamp column and an ISO time (SQLite's two-argument max compares the ISO text). */
export function later(db: DbOrTx, column: RawBuilder<unknown>, iso: string) {
  return engineOf(db) === 'postgres'
    ? sql<string>`greatest(${column}, ${iso}::timestamptz)`
    : sql<string>`max(${column}, ${iso})`;
}

/**
 * The largest (greatest) or smallest (least) of several values in one row. SQLite spells them max() and
 * min() with two or more arguments (with one they would be aggregates), PostgreSQL greatest() and least().
 */
export function greatest(db: DbOrTx, values: readonly Expression<number>[]): Expression<number> {
  return extreme(db, values, 'greatest');
}

export function least(db: DbOrTx, values: readonly Expression<number>[]): Expression<number> {
  return extreme(db, values, 'least');
}

function extreme(
  db: DbOrTx,
  values: readonly Expression<number>[],
  which: 'greatest' | 'least',
): Expression<number> {
  const [first] = values;
  if (first === undefined) throw new Error(`${which}() of no values`);
  if (values.length === 1) return first;
  const name = engineOf(db) === 'postgres' ? which : which === 'greatest' ? 'max' : 'min';
  return sql<number>`${sql.raw(name)}(${sql.join(values)})`;
}

/**
 * Makes the rest of the current transaction run alone among those that ask for the same `key`: SQLite runs
 * one write transaction at a time anyway; PostgreSQL takes a transaction-scoped advisory lock, so a
 * read-then-write (the next order number) cannot interleave with another process's.
 */
export async function oneAtATime(trx: DbOrTx, key: string): Promise<void> {
  if (engineOf(trx) === 'postgres') await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}

/**
 * Runs `write` so that, when it fails, only it is undone and the transaction goes on: what SQLite does with
 * a failed statement, and what a savepoint does on PostgreSQL, which otherwise refuses every later statement
 * of the transaction. For writes whose refusal the caller explains with a read in the same transaction.
 */
export async function undoneAloneOnError<T>(trx: DbOrTx, write: () => Promise<T>): Promise<T> {
  if (engineOf(trx) !== 'postgres' || !trx.isTransaction) return write();
  await sql`SAVEPOINT undone_alone`.execute(trx);
  try {
    const result = await write();
    await sql`RELEASE SAVEPOINT undone_alone`.execute(trx);
    return result;
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT undone_alone`.execute(trx);
    await sql`RELEASE SAVEPOINT undone_alone`.execute(trx);
    throw error;
  }
}

/**
 * `column LIKE pattern` ignoring case (SQLite's LIKE already ignores ASCII case; PostgreSQL's ILIKE), with
 * backslash escaping the wildcards. JSON columns are matched as their text.
 */
export function likeNoCase(db: DbOrTx, column: RawBuilder<unknown>, pattern: string) {
  return engineOf(db) === 'postgres'
    ? sql<boolean>`${column}::text ILIKE ${pattern} ESCAPE '\\'`
    : sql<boolean>`${column} LIKE ${pattern} ESCAPE '\\'`;
}

/** The values of a group joined by `separator`. */
export function groupConcat(db: DbOrTx, column: RawBuilder<unknown>, separator: string) {
  return engineOf(db) === 'postgres'
    ? sql<string>`string_agg(${column}, ${separator})`
    : sql<string>`group_concat(${column}, ${separator})`;
}

/** The first element of a JSON array column, as text (null when there is none). */
export function jsonFirst(db: DbOrTx, column: RawBuilder<unknown>) {
  return engineOf(db) === 'postgres'
    ? sql<string | null>`(${column} ->> 0)`
    : sql<string | null>`json_extract(${column}, '$[0]')`;
}

/** A JSON column as a JSON value inside other JSON (SQLite keeps JSON as text and must be told). */
export function jsonColumn(db: DbOrTx, column: RawBuilder<unknown>) {
  return engineOf(db) === 'postgres' ? column : sql`json(${column})`;
}

/** A JSON array text of the given values (a JSON column among them through jsonColumn). */
export function jsonArrayText(db: DbOrTx, values: RawBuilder<unknown>[]) {
  const list = sql.join(values);
  return engineOf(db) === 'postgres'
    ? sql<string>`jsonb_build_array(${list})::text`
    : sql<string>`json_array(${list})`;
}

/** Whether `err` is a unique index refusing a write; `index` names the index (PostgreSQL) or its columns. */
export function isUniqueViolation(err: unknown, index: { postgres: string; sqlite: RegExp }): boolean {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: unknown; constraint?: unknown };
  if (e.code === '23505') return e.constraint === index.postgres;
  return e.code === 'SQLITE_CONSTRAINT_UNIQUE' && index.sqlite.test(e.message);
}

/** Whether a text or JSON column's text contains `value` literally (no wildcards, case counts). */
export function containsText(db: DbOrTx, column: RawBuilder<unknown>, value: string) {
  return engineOf(db) === 'postgres'
    ? sql<boolean>`strpos(${column}::text, ${value}) > 0`
    : sql<boolean>`instr(${column}, ${value}) > 0`;
}

/**
 * A size as the product_facets triggers key it (value_key): spaces trimmed, A-Z upper-cased only, so a
 * size_stock row meets the facet row of the same size on both engines.
 */
export function sizeKey(db: DbOrTx, column: RawBuilder<unknown> | Expression<unknown>) {
  return engineOf(db) === 'postgres'
    ? sql<string>`ascii_upper(btrim(${column}))`
    : sql<string>`upper(trim(${column}))`;
}
