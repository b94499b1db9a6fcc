import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest } from '../db/migrate.js';
import { openPostgres } from '../db/postgres/connect-postgres.js';
import { migrationsHash } from './migrated-templates.js';
import { asPostgresAdmin, databaseUrl, postgresAdminUrl } from './postgres.js';

/** A database from the pool: drop() gives it back; lose() drops it for good (a test that takes it away). */
export type PooledDatabase = {
  name: string;
  url: string;
  drop(): Promise<void>;
  lose(): Promise<void>;
  /**
   * For the pool's own test: empties it as drop() does but names it `name` outside the pool, so nobody takes
   * it before the test has looked; false when it was dropped instead.
   */
  emptyAs(name: string): Promise<boolean>;
};

/**
 * Migrated PostgreSQL databases for the tests' stores, used again instead of made and dropped for each
 * test. On this machine kind a CREATE DATABASE took 0.4–0.8 s and a DROP DATABASE 0.5–5 s (it forces a
 * checkpoint, which every other test's writes then wait for): most of the PostgreSQL run's time. Emptying a
 * used database back to its migrated rows takes a tenth of that.
 *
 * The pool lives in the server's own catalogue, so test processes running side by side (and the next run)
 * share it without a coordinator: a free database is named `store_free_<migrations>_<id>`; taking one is
 * renaming it to `store_busy_…`, which PostgreSQL does for exactly one taker. A database whose schema a test
 * changed, or that cannot be emptied, is dropped instead of given back.
 */

export type Snapshot = {
  /** The migrated schema's fingerprint: a database given back must still have it. */
  schema: string;
  /** The rows the migrations left (the settings row), as JSON per table. */
  rows: { table: string; json: string }[];
  /** Each sequence's value after the migrations. */
  sequences: { name: string; value: number; called: boolean }[];
  /** Every table but the migrator's own, emptied on the way back. */
  tables: string[];
};

export const SCHEMA_FINGERPRINT = `
  SELECT md5(coalesce(string_agg(x, E'\\n' ORDER BY x), '')) AS schema FROM (
    SELECT 'rel ' || c.relname || ' ' || c.relkind::text || ' ' || coalesce(pg_get_indexdef(c.oid), '') AS x
      FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'col ' || a.attrelid::regclass::text || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || ' ' || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid AND c.relnamespace = 'public'::regnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attnum > 0 AND NOT a.attisdropped
    UNION ALL
    SELECT 'trg ' || pg_get_triggerdef(t.oid) || ' ' || t.tgenabled::text
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid AND c.relnamespace = 'public'::regnamespace
     WHERE NOT t.tgisinternal
    UNION ALL
    SELECT 'fn ' || p.oid::regprocedure::text || ' ' || md5(p.prosrc) FROM pg_proc p
     WHERE p.pronamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'con ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'ns ' || nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'
    UNION ALL
    SELECT 'mig ' || name FROM kysely_migration
    UNION ALL
    SELECT 'set ' || array_to_string(setconfig, ',') FROM pg_db_role_setting
     WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
  ) s`;

/**
 * Read from a freshly migrated database while the template is built, and kept as the template's comment:
 * nobody connects to the template itself, since CREATE DATABASE refuses a template anyone is connected to.
 */
export async function takeSnapshot(client: pg.Client): Promise<Snapshot> {
  const schema = (await client.query<{ schema: string }>(SCHEMA_FINGERPRINT)).rows[0]?.schema ?? '';
  const tables = (
    await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'
         AND tablename NOT IN ('kysely_migration', 'kysely_migration_lock') ORDER BY tablename`,
    )
  ).rows.map((r) => r.name);
  const rows: Snapshot['rows'] = [];
  for (const table of tables) {
    const found = await client.query<{ json: string | null }>(
      `SELECT json_agg(t)::text AS json FROM ${pg.escapeIdentifier(table)} t`,
    );
    const json = found.rows[0]?.json;
    if (json) rows.push({ table, json });
  }
  const sequences = (
    await client.query<{ name: string; value: string; called: boolean }>(
      `SELECT quote_ident(sequencename) AS name, coalesce(last_value, start_value)::text AS value,
              last_value IS NOT NULL AS called
         FROM pg_sequences WHERE schemaname = 'public'`,
    )
  ).rows.map((r) => ({ name: r.name, value: Number(r.value), called: r.called }));
  return { schema, rows, sequences, tables };
}

let snapshot: Promise<Snapshot> | null = null;

function templateSnapshot(template: string): Promise<Snapshot> {
  snapshot ??= asPostgresAdmin(async (c) => {
    const found = await c.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [template],
    );
    const comment = found.rows[0]?.comment;
    if (!comment) throw new Error(`the test template ${template} has no snapshot`);
    return JSON.parse(comment) as Snapshot;
  });
  return snapshot;
}

/** Busy names carry when they were taken (seconds, base 36), so the sweep finds what a crashed run left. */
const busyName = (template: string) =>
  `${busyPrefix(template)}_${Math.floor(Date.now() / 1000).toString(36)}_${randomBytes(4).toString('hex')}`;

let postgresTemplate: Promise<string> | null = null;

/**
 * The migrated database the pool copies, made once per set of migrations and kept on the server (the next
 * run finds it). An advisory lock makes one of the test processes build it; it appears under its final name,
 * with its snapshot as its comment, only when complete. The same process sweeps what earlier runs left: free
 * databases of other migrations, and busy ones older than three hours (a test process that crashed).
 */
export function migratedPostgresTemplate(): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `store_template_${migrationsHash()}`;
    await asPostgresAdmin(async (client) => {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      try {
        // One without its snapshot (left by an older version of this file) is made again.
        const found = await client.query(
          `SELECT 1 FROM pg_database WHERE datname = $1 AND shobj_description(oid, 'pg_database') IS NOT NULL`,
          [name],
        );
        if (found.rowCount) return;
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        const building = `${name}_building`;
        await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${building} TEMPLATE template0 ENCODING 'UTF8'`);
        const handle = openPostgres(databaseUrl(postgresAdminUrl, building), 1, { lockWaitMs: 0 });
        try {
          await migrateToLatest(handle.db, 'postgres');
        } finally {
          await handle.close();
        }
        const snap = await asPostgresAdmin(takeSnapshot, building);
        await client.query(`COMMENT ON DATABASE ${building} IS ${pg.escapeLiteral(JSON.stringify(snap))}`);
        await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        await sweep(client, name);
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
      }
    });
    return name;
  })();
  return postgresTemplate;
}

async function sweep(client: pg.Client, template: string): Promise<void> {
  const stale = Math.floor(Date.now() / 1000) - 3 * 3600;
  const names = await client.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE 'store\\_free\\_%' OR datname LIKE 'store\\_busy\\_%'`,
  );
  for (const { datname } of names.rows) {
    // Another run of other migrations may be using its busy databases right now: only old ones go.
    const busy = datname.startsWith('store_busy_');
    const taken = busy ? Number.parseInt(datname.split('_').at(-2) ?? '', 36) : 0;
    if (busy ? taken > stale : datname.startsWith(freePrefix(template))) continue;
    await client
      .query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`)
      .catch(() => undefined);
  }
}

const freePrefix = (template: string) => template.replace('store_template_', 'store_free_');
const busyPrefix = (template: string) => template.replace('store_template_', 'store_busy_');

/** A migrated database for one test store; drop() gives it back emptied (or drops it, if it changed). */
export async function takeMigratedPostgres(): Promise<PooledDatabase> {
  const template = await migratedPostgresTemplate();
  const name = (await takeFree(template)) ?? (await createBusy(template));
  let gone = false;
  return {
    name,
    url: databaseUrl(postgresAdminUrl, name),
    async drop() {
      if (gone) return;
      gone = true;
      await giveBack(template, name);
    },
    async lose() {
      gone = true;
      await dropDatabase(name);
    },
    async emptyAs(kept: string) {
      gone = true;
      return giveBack(template, name, kept);
    },
  };
}

async function takeFree(template: string): Promise<string | null> {
  return asPostgresAdmin(async (c) => {
    const free = await c.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1 ORDER BY random() LIMIT 8`,
      [`${freePrefix(template)}\\_%`],
    );
    for (const { datname } of free.rows) {
      const busy = busyName(template);
      try {
        await c.query(
          `ALTER DATABASE ${pg.escapeIdentifier(datname)} RENAME TO ${pg.escapeIdentifier(busy)}`,
        );
        return busy;
      } catch {
        // Another test process took it first (or is still giving it back): try the next.
      }
    }
    return null;
  });
}

async function createBusy(template: string): Promise<string> {
  const busy = busyName(template);
  await asPostgresAdmin((c) => c.query(`CREATE DATABASE ${pg.escapeIdentifier(busy)} TEMPLATE ${template}`));
  return busy;
}

async function dropDatabase(name: string): Promise<void> {
  await asPostgresAdmin(
    async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`)),
  );
}

/**
 * Ends whatever the test left connected, empties the tables back to the migrated rows, and renames the
 * database free. Anything unexpected (a changed schema, a connection that will not go) drops it instead:
 * the pool only ever hands out databases equal to a fresh copy of the template.
 */
async function giveBack(template: string, name: string, keptAs?: string): Promise<boolean> {
  const snap = await templateSnapshot(template);
  try {
    await asPostgresAdmin((c) =>
      c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]),
    );
    const same = await asPostgresAdmin(async (c) => {
      const schema = (await c.query<{ schema: string }>(SCHEMA_FINGERPRINT)).rows[0]?.schema;
      if (schema !== snap.schema) return false;
      await c.query('BEGIN');
      // Replica role: no trigger runs while the tables are emptied and refilled (the foreign keys' included).
      await c.query('SET LOCAL session_replication_role = replica');
      await c.query(snap.tables.map((t) => `DELETE FROM ${pg.escapeIdentifier(t)}`).join(';\n'));
      for (const { table, json } of snap.rows) {
        const t = pg.escapeIdentifier(table);
        await c.query(`INSERT INTO ${t} SELECT * FROM json_populate_recordset(NULL::${t}, $1)`, [json]);
      }
      for (const s of snap.sequences) await c.query('SELECT setval($1, $2, $3)', [s.name, s.value, s.called]);
      await c.query('COMMIT');
      return true;
    }, name);
    if (!same) {
      await dropDatabase(name);
      return false;
    }
    await renameWhenAlone(name, keptAs ?? `${freePrefix(template)}_${randomBytes(6).toString('hex')}`);
    return true;
  } catch {
    await dropDatabase(name);
    return false;
  }
}

/** A rename needs the database to itself; a terminated backend can take a moment to leave. */
async function renameWhenAlone(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await asPostgresAdmin((c) =>
        c.query(`ALTER DATABASE ${pg.escapeIdentifier(from)} RENAME TO ${pg.escapeIdentifier(to)}`),
      );
      return;
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
