import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../test-support/postgres.js';
import { migrateToLatest } from '../migrate.js';
import { openPostgres, type PostgresHandle } from './connect-postgres.js';
import { LocalWrites } from './local-writes.js';
import { type RevisionWatch, watchRevision } from './revision-watch.js';

/** The storefront revision as every process on one PostgreSQL database follows it (decision 0015). */
describe('the revision watch', () => {
  let database: ThrowawayDatabase;
  let handle: PostgresHandle;
  let other: PostgresHandle;
  let watch: RevisionWatch;
  /** This process's writes, as the store's Kysely instance records them. */
  let writes: LocalWrites;
  beforeEach(async () => {
    database = await createThrowawayDatabase('store_revision');
    handle = openPostgres(database.url, 2);
    await migrateToLatest(handle.db, 'postgres');
    other = openPostgres(database.url, 1);
    await sql`INSERT INTO app_meta (key, value) VALUES ('storefront_revision', '1') ON CONFLICT DO NOTHING`.execute(
      other.db,
    );
    writes = new LocalWrites();
    // No poll within the test: what arrives comes by notification or by settle().
    watch = await watchRevision(handle.pool, { url: database.url, pollMs: 600_000, writes });
  });
  afterEach(async () => {
    await watch.stop();
    await handle.close();
    await other.close();
    await database.drop();
  });

  const bumpFromAnotherProcess = (notify: boolean) =>
    sql`WITH next AS (
          UPDATE app_meta SET value = (value::bigint + 1)::text WHERE key = 'storefront_revision' RETURNING value
        )
        SELECT CASE WHEN ${notify} THEN pg_notify('storefront_revision', value) END FROM next`.execute(
      other.db,
    );

  it('takes another process’s change from its notification, within a second', async () => {
    const before = watch.read();
    await bumpFromAnotherProcess(true);
    const started = Date.now();
    while (watch.read() === before && Date.now() - started < 1000)
      await new Promise((r) => setTimeout(r, 10));
    expect(Number(watch.read())).toBe(Number(before) + 1);
  });

  it('after a write of its own, settle() reads the database instead of waiting for the notification', async () => {
    const before = watch.read();
    await bumpFromAnotherProcess(false); // committed, announced to nobody
    await watch.read.settle?.();
    expect(watch.read()).toBe(before); // this process wrote nothing: no query

    // A write of its own, through the plugin that records it.
    await sql`UPDATE app_meta SET value = value WHERE key = 'nothing'`.execute(handle.db.withPlugin(writes));
    await watch.read.settle?.();
    expect(Number(watch.read())).toBe(Number(before) + 1);
  });

  it('listens again after the server ended its connection, also when it could not reconnect at once', async () => {
    // From another database: a database cannot shut its own doors.
    const adminUrl = new URL(database.url);
    adminUrl.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    const listening = async () =>
      Number(
        (
          await admin.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity
              WHERE datname = $1 AND query = 'LISTEN storefront_revision'`,
            [database.name],
          )
        ).rows[0]?.n ?? 0,
      );
    try {
      expect(await listening()).toBe(1);
      // As during a restart: the connection is ended, and for a while no new one is let in.
      await admin.query(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS false`);
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = $1 AND query = 'LISTEN storefront_revision'`,
        [database.name],
      );
      await until(async () => (await listening()) === 0, 5000);
      // Long enough for more than one attempt to be refused.
      await new Promise((r) => setTimeout(r, 2500));
      await admin.query(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS true`);
      await until(async () => (await listening()) === 1, 10_000);
    } finally {
      await admin.query(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS true`).catch(() => undefined);
      await admin.end();
    }
    // The poll is off in this test: only a notification can bring the change.
    const before = watch.read();
    await bumpFromAnotherProcess(true);
    await until(async () => watch.read() !== before, 5000);
    expect(Number(watch.read())).toBe(Number(before) + 1);
  });
});

async function until(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`not seen within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
