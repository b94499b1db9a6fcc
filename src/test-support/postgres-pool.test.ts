import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { demoDir } from '../app-root.js';
import { openPostgresStore } from '../db/store-database.js';
import { insertAdmin } from '../modules/auth/admins.repository.js';
import { loadDemoCatalogueIfEmpty } from '../modules/demo/demo-loader.js';
import { LocalFileStorage } from '../storage/local-file-storage.js';
import { asPostgresAdmin, databaseUrl, postgresAdminUrl } from './postgres.js';
import { migratedPostgresTemplate, SCHEMA_FINGERPRINT, takeMigratedPostgres } from './postgres-pool.js';
import { fixedClock, testEngine } from './test-store.js';

/** Everything a test could see of a database: its schema, every table's rows, where every sequence stands. */
async function contents(name: string): Promise<Record<string, string | null>> {
  const client = new pg.Client({ connectionString: databaseUrl(postgresAdminUrl, name) });
  await client.connect();
  try {
    const out: Record<string, string | null> = {};
    out.schema = (await client.query<{ schema: string }>(SCHEMA_FINGERPRINT)).rows[0]?.schema ?? null;
    const tables = await client.query<{ t: string }>(
      `SELECT quote_ident(tablename) AS t FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'kysely_migration_lock'`,
    );
    for (const { t } of tables.rows) {
      const rows = await client.query<{ j: string | null }>(
        `SELECT json_agg(x ORDER BY x::text)::text AS j FROM ${t} x`,
      );
      out[t] = rows.rows[0]?.j ?? null;
    }
    const seqs = await client.query<{ s: string }>(
      `SELECT quote_ident(sequencename) AS s FROM pg_sequences WHERE schemaname = 'public'`,
    );
    for (const { s } of seqs.rows) {
      const seq = await client.query<{ at: string }>(`SELECT last_value || ' ' || is_called AS at FROM ${s}`);
      out[`sequence ${s}`] = seq.rows[0]?.at ?? null;
    }
    return out;
  } finally {
    await client.end();
  }
}

const dropLater: string[] = [];
afterEach(async () => {
  for (const name of dropLater.splice(0)) {
    await asPostgresAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
});

describe.skipIf(testEngine !== 'postgres')('the tests’ pool of migrated PostgreSQL databases', () => {
  it('gives a used database back equal to a fresh copy of the template: rows, sequences and schema', async () => {
    const template = await migratedPostgresTemplate();
    const fresh = `pool_fresh_${randomBytes(4).toString('hex')}`;
    const kept = `pool_kept_${randomBytes(4).toString('hex')}`;
    dropLater.push(fresh, kept);
    await asPostgresAdmin((c) => c.query(`CREATE DATABASE ${fresh} TEMPLATE ${template}`));

    const taken = await takeMigratedPostgres();
    const dir = mkdtempSync(path.join(tmpdir(), 'pool-test-'));
    const store = await openPostgresStore(taken.url, 2);
    try {
      await loadDemoCatalogueIfEmpty({
        db: store.db,
        storage: new LocalFileStorage(dir),
        demoDir,
        clock: fixedClock,
      });
      await insertAdmin(store.db, 'owner@shop.example', 'not-a-real-hash', fixedClock.now(), 'owner');
      await store.db.updateTable('settings').set({ store_name: 'Changed by a test' }).execute();
      expect(await contents(taken.name)).not.toEqual(await contents(fresh));
      // A connection the test forgot, holding a transaction open: giving back must not wait for it.
      const forgotten = new pg.Client({ connectionString: taken.url });
      await forgotten.connect();
      forgotten.on('error', () => undefined);
      await forgotten.query('BEGIN; LOCK TABLE products IN ACCESS EXCLUSIVE MODE');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }

    expect(await taken.emptyAs(kept)).toBe(true);
    expect(await contents(kept)).toEqual(await contents(fresh));
  });

  it('drops a database whose schema the test changed instead of giving it back', async () => {
    const taken = await takeMigratedPostgres();
    const client = new pg.Client({ connectionString: taken.url });
    await client.connect();
    await client.query('ALTER TABLE products ADD COLUMN left_by_a_test integer');
    await client.end();
    const kept = `pool_kept_${randomBytes(4).toString('hex')}`;
    dropLater.push(kept);

    expect(await taken.emptyAs(kept)).toBe(false);
    const left = await asPostgresAdmin((c) =>
      c.query('SELECT datname FROM pg_database WHERE datname IN ($1, $2)', [kept, taken.name]),
    );
    expect(left.rows).toEqual([]);
  });
});
