import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { migrations } from '../../migrations/index.js';
import { databaseFile } from '../db/connect.js';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { FileStorage } from '../storage/file-storage.js';
import { LocalFileStorage, TEMP_NAME } from '../storage/local-file-storage.js';
import { CATALOG_PREFIX, PUBLIC_MEDIA_PREFIX } from '../storage/storage-keys.js';
import {
  COPIED_TABLES,
  type CopiedTable,
  PRESET_TABLES,
  SKIPPED_PREFIX,
  SKIPPED_TABLES,
  UPSERT_KEYS,
} from './move-store-tables.js';

/** The move will not start: nothing was changed. */
export class MoveRefused extends Error {
  override name = 'MoveRefused';
}

/** The copy did not come out equal to its source: the database part was rolled back. */
export class MoveCheckFailed extends Error {
  override name = 'MoveCheckFailed';
}

export type MoveReport = {
  tables: { table: CopiedTable; rows: number }[];
  /** Files under media/ and catalogs/; `copied` is false when the target storage is the source folder. */
  files: { count: number; bytes: number; copied: boolean };
};

type Row = unknown[];
/** Enough rows per INSERT to be quick, few enough parameters for PostgreSQL's limit of 65,535. */
const PARAMETERS_PER_INSERT = 20_000;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The source must be exactly at this version's schema: older has other columns, newer is not ours to move. */
function checkSourceSchema(source: SQLite.Database): void {
  const applied = (
    source.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]
  ).map((r) => r.name);
  const known = Object.keys(migrations).sort();
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new MoveRefused(`The SQLite store was migrated by a newer version of the store (${unknown[0]}).`);
  const missing = known.filter((name) => !applied.includes(name));
  if (missing.length > 0)
    throw new MoveRefused(
      `The SQLite store lacks ${missing.length} migration(s), from ${missing[0]}: bring it up to date first (npm run db:migrate without DATABASE_URL).`,
    );
}

/** Every table of the source is either copied or left out for a stated reason (move-store-tables.ts). */
function checkSourceTables(source: SQLite.Database): void {
  const names = (
    source.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((r) => r.name);
  const known = new Set<string>([...COPIED_TABLES, ...Object.keys(SKIPPED_TABLES)]);
  const strange = names.filter((name) => !known.has(name) && !name.startsWith(SKIPPED_PREFIX));
  if (strange.length > 0)
    throw new MoveRefused(`The SQLite store has tables this version cannot move: ${strange.join(', ')}.`);
}

async function tableExists(db: Kysely<Database>, table: string): Promise<boolean> {
  const result = await sql<{
    found: string | null;
  }>`SELECT to_regclass(${`public.${table}`})::text AS found`.execute(db);
  return result.rows[0]?.found != null;
}

async function refuseFilledDatabase(db: Kysely<Database>): Promise<void> {
  for (const table of COPIED_TABLES) {
    if (PRESET_TABLES.has(table) || !(await tableExists(db, table))) continue;
    const result = await sql<{ any: number }>`SELECT count(*) AS any FROM ${sql.table(table)}`.execute(db);
    if (Number(result.rows[0]?.any ?? 0) > 0)
      throw new MoveRefused(
        `The PostgreSQL database is not empty (${table} has rows). Move into a new, empty database.`,
      );
  }
}

async function refuseFilledStorage(storage: FileStorage): Promise<void> {
  for (const prefix of [PUBLIC_MEDIA_PREFIX, CATALOG_PREFIX]) {
    for await (const file of storage.list(prefix)) {
      throw new MoveRefused(
        `The ${storage.description} is not empty (${file.key}). Move into empty storage.`,
      );
    }
  }
}

/** Both engines must have the same columns for every copied table; returns them in the source's order. */
async function columnsOf(source: SQLite.Database, db: Kysely<Database>): Promise<Map<CopiedTable, string[]>> {
  const result = await sql<{ table_name: string; column_name: string }>`
    SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`.execute(
    db,
  );
  const columns = new Map<CopiedTable, string[]>();
  for (const table of COPIED_TABLES) {
    const mine = (
      source.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[]
    ).map((r) => r.name);
    const theirs = result.rows.filter((r) => r.table_name === table).map((r) => r.column_name);
    const differ = [...mine.filter((c) => !theirs.includes(c)), ...theirs.filter((c) => !mine.includes(c))];
    if (differ.length > 0)
      throw new MoveRefused(`${table} has other columns on PostgreSQL than on SQLite: ${differ.join(', ')}.`);
    columns.set(table, mine);
  }
  return columns;
}

/** Media and catalogue files of the source folder, without the leftovers of interrupted writes. */
async function sourceFiles(dir: string): Promise<string[]> {
  const folder = new LocalFileStorage(dir);
  const keys: string[] = [];
  for (const prefix of [PUBLIC_MEDIA_PREFIX, CATALOG_PREFIX])
    for await (const file of folder.list(prefix)) if (!TEMP_NAME.test(file.key)) keys.push(file.key);
  return keys;
}

async function copyFiles(
  sourceDir: string,
  keys: readonly string[],
  storage: FileStorage,
  copy: boolean,
  log: (line: string) => void,
): Promise<number> {
  const folder = new LocalFileStorage(sourceDir);
  const expected = new Map<string, string>();
  let bytes = 0;
  for (const [i, key] of keys.entries()) {
    const data = await folder.read(key);
    expected.set(key, sha256(data));
    bytes += data.length;
    if (copy) await storage.put(key, data);
    if ((i + 1) % 500 === 0) log(`  ${i + 1} of ${keys.length} files`);
  }
  // Read back from the target, so the check covers what the storage really holds.
  for (const key of keys) {
    const hash = createHash('sha256');
    for await (const chunk of await storage.stream(key)) hash.update(chunk as Buffer);
    if (hash.digest('hex') !== expected.get(key))
      throw new MoveCheckFailed(
        `${key} in the ${storage.description} does not match its sha256 in ${sourceDir}.`,
      );
  }
  return bytes;
}

/** The admins' columns sealed with the session keys (modules/auth/two-factor/secret-box.ts). */
const SEALED_COLUMNS = ['totp_secret', 'totp_pending_secret'];

async function insertRows(
  db: Kysely<Database>,
  table: CopiedTable,
  columns: string[],
  rows: Row[],
): Promise<void> {
  const key = UPSERT_KEYS[table];
  const onConflict = key
    ? sql` ON CONFLICT (${sql.ref(key)}) DO UPDATE SET ${sql.join(
        columns.filter((c) => c !== key).map((c) => sql`${sql.ref(c)} = EXCLUDED.${sql.ref(c)}`),
      )}`
    : sql``;
  await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
    VALUES ${sql.join(rows.map((row) => sql`(${sql.join(row.map((value) => sql.val(value)))})`))}${onConflict}`.execute(
    db,
  );
}

/** Rows were written with their ids: each identity sequence continues after the highest one. */
async function resetIdentities(db: Kysely<Database>): Promise<void> {
  const result = await sql<{ table_name: string; column_name: string }>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND is_identity = 'YES'`.execute(db);
  for (const { table_name: table, column_name: column } of result.rows) {
    if (!(COPIED_TABLES as readonly string[]).includes(table)) continue; // filled by triggers, not copied
    await sql`SELECT setval(pg_get_serial_sequence(${quoted(table)}, ${column}),
      coalesce((SELECT max(${sql.ref(column)}) FROM ${sql.table(table)}), 0) + 1, false)`.execute(db);
  }
}

/**
 * Copies a stopped SQLite store (its data folder) into an empty PostgreSQL database and the given file
 * storage: every file under media/ and catalogs/, checked by sha256 as the target storage returns it, then
 * every row of every table (move-store-tables.ts) in one transaction, checked by count before it commits.
 * A refusal changes nothing; a failure in the rows leaves the database empty (files already copied stay,
 * and a new attempt into the same storage needs it emptied first).
 * The caller holds the data folder's exclusive lock, so no store writes to the source meanwhile.
 */
export async function moveStore(deps: {
  sourceDir: string;
  target: Kysely<Database>;
  storage: FileStorage;
  log?: (line: string) => void;
  /**
   * Seals an admin's TOTP secret again for the target's session keys (SESSION_SECRET on PostgreSQL, where
   * the SQLite store may have used its key file); null when no key opens it. Without it the values move as
   * they are.
   */
  resealSecret?: (sealed: string) => string | null;
}): Promise<MoveReport> {
  const log = deps.log ?? (() => undefined);
  const file = databaseFile(deps.sourceDir);
  if (!existsSync(file)) throw new MoveRefused(`There is no SQLite store at ${file}.`);
  const source = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    checkSourceSchema(source);
    checkSourceTables(source);
    await refuseFilledDatabase(deps.target);
    const sameFolder =
      deps.storage instanceof LocalFileStorage && deps.storage.root === path.resolve(deps.sourceDir);
    if (!sameFolder) await refuseFilledStorage(deps.storage);

    await migrateToLatest(deps.target, 'postgres');
    const columns = await columnsOf(source, deps.target);

    const keys = await sourceFiles(deps.sourceDir);
    log(
      sameFolder
        ? `Checking ${keys.length} files, which stay in ${deps.sourceDir}…`
        : `Copying ${keys.length} files to the ${deps.storage.description}…`,
    );
    const bytes = await copyFiles(deps.sourceDir, keys, deps.storage, !sameFolder, log);

    // One read transaction: every table is read from the same moment of the source.
    source.exec('BEGIN');
    const tables: MoveReport['tables'] = [];
    let unreadable = 0;
    await deps.target.transaction().execute(async (trx) => {
      for (const table of COPIED_TABLES) {
        const names = columns.get(table) ?? [];
        const perInsert = Math.max(1, Math.floor(PARAMETERS_PER_INSERT / names.length));
        const select = source
          .prepare(`SELECT ${names.map(quoted).join(', ')} FROM ${quoted(table)}`)
          .raw(true);
        let batch: Row[] = [];
        let rows = 0;
        const sealed =
          table === 'admins' ? SEALED_COLUMNS.map((c) => names.indexOf(c)).filter((i) => i >= 0) : [];
        for (const row of select.iterate() as IterableIterator<Row>) {
          for (const i of sealed) {
            const value = row[i];
            if (typeof value !== 'string' || !deps.resealSecret) continue;
            const resealed = deps.resealSecret(value);
            if (resealed === null) unreadable++;
            else row[i] = resealed;
          }
          batch.push(row);
          if (batch.length === perInsert) {
            await insertRows(trx, table, names, batch);
            rows += batch.length;
            batch = [];
          }
        }
        if (batch.length > 0) await insertRows(trx, table, names, batch);
        rows += batch.length;
        tables.push({ table, rows });
        log(`  ${table}: ${rows} rows`);
      }
      if (unreadable > 0) {
        log(
          `  ${unreadable} two-factor key(s) open with none of the session keys: those admins need \`npm run admin -- reset-2fa EMAIL\` after the move.`,
        );
      }
      await resetIdentities(trx);
      // Counted again on both sides, independently of the copy loop.
      for (const { table } of tables) {
        const counted = source.prepare(`SELECT count(*) AS n FROM ${quoted(table)}`).get() as { n: number };
        // A preset table also holds what PostgreSQL's schema put there and the source never had (the
        // storefront revision of a store whose storefront never changed): only the source's keys count.
        const key = PRESET_TABLES.has(table) ? UPSERT_KEYS[table] : undefined;
        const keys = key
          ? (source
              .prepare(`SELECT ${quoted(key)} FROM ${quoted(table)}`)
              .pluck()
              .all() as unknown[])
          : [];
        const result = key
          ? await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}
              WHERE ${sql.ref(key)} IN (${keys.length > 0 ? sql.join(keys.map((k) => sql.val(k))) : sql`NULL`})`.execute(
              trx,
            )
          : await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(trx);
        const copied = Number(result.rows[0]?.n ?? -1);
        if (copied !== counted.n)
          throw new MoveCheckFailed(
            `${table}: ${counted.n} rows in SQLite, ${copied} in PostgreSQL. Nothing was kept in PostgreSQL.`,
          );
      }
    });
    source.exec('COMMIT');
    return { tables, files: { count: keys.length, bytes, copied: !sameFolder } };
  } finally {
    source.close();
  }
}
