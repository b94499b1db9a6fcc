import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createThrowawayDatabase } from '../test-support/postgres.js';
import { createPostgresOpsStore, type PostgresOpsStore } from '../test-support/postgres-ops-store.js';
import { type CheckResult, runDoctor } from './doctor.js';
import { knownMigrationNames } from './schema.js';

const of = (results: CheckResult[], check: string) => results.find((r) => r.check === check);

/** The PostgreSQL twin of doctor.test.ts's database checks: a store with DATABASE_URL, on a real server. */
describe('npm run doctor with DATABASE_URL', () => {
  let store: PostgresOpsStore;
  let emptyDir: string | null = null;
  afterEach(async () => {
    await store.cleanup();
    if (emptyDir) rmSync(emptyDir, { recursive: true, force: true });
  });

  async function pgStore(): Promise<Record<string, string>> {
    store = await createPostgresOpsStore();
    chmodSync(store.dir, 0o700);
    return {
      DATA_DIR: store.dir,
      DATABASE_URL: store.url,
      SESSION_SECRET: store.config.session.secret ?? '',
      NODE_ENV: 'development',
    };
  }

  it('passes a healthy store: the server, its version, the schema, the store’s connections and the tools', async () => {
    const env = await pgStore();
    const results = await runDoctor(env, { uid: null });
    expect(results.filter((r) => r.level === 'FAIL')).toEqual([]);
    expect(of(results, 'config')?.message).toMatch(/database PostgreSQL\)$/);
    expect(of(results, 'database')).toEqual({
      level: 'OK',
      check: 'database',
      message: expect.stringMatching(
        new RegExp(
          `^PostgreSQL \\d+\\.\\d+.* at 127\\.0\\.0\\.1:5432/${store.url.split('/').at(-1)}, schema current \\(${knownMigrationNames('postgres').length} migrations\\), \\d+ connections? from store processes$`,
        ),
      ),
    });
    expect(of(results, 'pg-tools')).toMatchObject({
      level: 'OK',
      message: expect.stringMatching(/^pg_dump \d+\.\d+ and pg_restore \d+\.\d+ \(server \d+\)$/),
    });
    await store.stop();
    // A server process leaves pg_stat_activity a moment after its client hung up.
    let message = '';
    for (let i = 0; i < 40 && !/no store process connected$/.test(message); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      message = of(await runDoctor(env, { uid: null }), 'database')?.message ?? '';
    }
    expect(message).toMatch(/no store process connected$/);
  });

  it('says what to install when pg_dump is missing: a warning, a failure once backups are scheduled', async () => {
    const env = await pgStore();
    emptyDir = mkdtempSync(path.join(tmpdir(), 'store-no-pg-bin-'));
    const missing = of(await runDoctor({ ...env, POSTGRES_BIN_DIR: emptyDir }, { uid: null }), 'pg-tools');
    expect(missing).toMatchObject({
      level: 'WARN',
      message: expect.stringMatching(
        /^backups cannot run: pg_dump was not found in .* \(POSTGRES_BIN_DIR\)\. Fix: Install the PostgreSQL client tools .*postgresql-client-\d+/,
      ),
    });
    const scheduled = { ...env, POSTGRES_BIN_DIR: emptyDir, BACKUP_INTERVAL_HOURS: '24' };
    expect(of(await runDoctor(scheduled, { uid: null }), 'pg-tools')?.level).toBe('FAIL');
  });

  it('flags pending and unknown migrations, an empty database, and a server it cannot reach', async () => {
    const env = await pgStore();
    await store.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', knownMigrationNames('postgres').at(-1) as never)
      .execute();
    expect(of(await runDoctor(env, { uid: null }), 'database')).toMatchObject({
      level: 'WARN',
      message: expect.stringMatching(/1 migration will run at the next start/),
    });
    await store.db
      .insertInto('kysely_migration' as never)
      .values({ name: '2999-01-01T0001-from-the-future', timestamp: new Date().toISOString() } as never)
      .execute();
    expect(of(await runDoctor(env, { uid: null }), 'database')).toMatchObject({
      level: 'FAIL',
      message: expect.stringMatching(
        /migrations this code does not know \(2999-01-01T0001-from-the-future\)/,
      ),
    });

    const empty = await createThrowawayDatabase();
    try {
      expect(
        of(await runDoctor({ ...env, DATABASE_URL: empty.url }, { uid: null }), 'database'),
      ).toMatchObject({
        level: 'WARN',
        message: expect.stringMatching(/holds no schema yet/),
      });
    } finally {
      await empty.drop();
    }

    const gone = new URL(store.url);
    gone.pathname = '/store_test_no_such_database';
    gone.password = 'secret-password';
    const unreachable = of(
      await runDoctor({ ...env, DATABASE_URL: gone.toString() }, { uid: null }),
      'database',
    );
    expect(unreachable).toMatchObject({
      level: 'FAIL',
      message: expect.stringMatching(
        /^cannot reach PostgreSQL at 127\.0\.0\.1:5432\/store_test_no_such_database: /,
      ),
    });
    expect(unreachable?.message).not.toContain('secret-password');
  });
});
