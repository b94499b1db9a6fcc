import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { isDatabaseBusy } from '../core/failures.js';
import { type DatabaseHandle, openDatabase } from './connect.js';
import { currentRevision, revisionReader } from './store-revision.js';

type T = { t: { n: number } };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the store driver (BEGIN IMMEDIATE, async lock waits, a read-only connection for reads)', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let holder: SQLite.Database | null = null;

  async function open(): Promise<Kysely<T>> {
    dir = mkdtempSync(path.join(tmpdir(), 'store-dialect-'));
    handle = openDatabase(path.join(dir, 'store.db'));
    const db = handle.db as unknown as Kysely<T>;
    await sql`CREATE TABLE t (n INTEGER NOT NULL)`.execute(db);
    await db.insertInto('t').values({ n: 1 }).execute();
    return db;
  }

  /** A second connection on the file holding the write lock, as the admin CLI or a backup would. */
  function holdWriteLock(): () => void {
    const other = new SQLite(path.join(dir, 'store.db'));
    other.exec('BEGIN IMMEDIATE');
    holder = other;
    return () => {
      if (!other.open) return;
      other.exec('ROLLBACK');
      other.close();
    };
  }

  const count = async (db: Kysely<T>) =>
    Number(
      (
        await db
          .selectFrom('t')
          .select((eb) => eb.fn.countAll().as('c'))
          .executeTakeFirstOrThrow()
      ).c,
    );

  afterEach(async () => {
    if (holder?.open) holder.close();
    holder = null;
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a transaction that reads, then writes, waits for another connection’s lock and commits after it is released', async () => {
    const db = await open();
    const release = holdWriteLock();
    const events: string[] = [];
    setTimeout(() => {
      release();
      events.push('released');
    }, 300);
    // With a deferred BEGIN, the write's lock upgrade failed at once (SQLITE_BUSY, no busy handler).
    await db.transaction().execute(async (trx) => {
      const before = await count(trx);
      await trx
        .insertInto('t')
        .values({ n: before + 1 })
        .execute();
    });
    events.push('committed');
    expect(events).toEqual(['released', 'committed']);
    expect(await count(db)).toBe(2);
  });

  it('keeps the event loop free while a write waits: timers tick and reads are answered meanwhile', async () => {
    const db = await open();
    const release = holdWriteLock();
    const events: string[] = [];
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    setTimeout(() => {
      release();
      events.push('released');
    }, 400);
    try {
      const write = db
        .insertInto('t')
        .values({ n: 2 })
        .execute()
        .then(() => events.push('write done'));
      await sleep(50);
      const ticksWhileWaiting = ticks;
      events.push(`read ${await count(db)}`);
      await write;
      expect(events).toEqual(['read 1', 'released', 'write done']);
      expect(ticksWhileWaiting).toBeGreaterThan(0);
    } finally {
      clearInterval(ticker);
    }
  });

  it('gives up as busy (a 503) once the lock budget is spent, not before', async () => {
    const db = await open();
    holdWriteLock();
    handle.lockWait.ms = 200;
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const started = performance.now();
    const error = await db
      .insertInto('t')
      .values({ n: 2 })
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      )
      .finally(() => clearInterval(ticker));
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
    expect(isDatabaseBusy(error)).toBe(true);
    expect(ticks).toBeGreaterThan(0); // waited on timers, not inside SQLite's busy handler
    const inTransaction = await db
      .transaction()
      .execute(async (trx) => trx.insertInto('t').values({ n: 3 }).execute())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isDatabaseBusy(inTransaction)).toBe(true);
  });

  it('runs another request’s write after this process’s open transaction, never inside it', async () => {
    const db = await open();
    const events: string[] = [];
    let other: Promise<unknown> = Promise.resolve();
    const failed = db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ n: 100 }).execute();
      other = db
        .insertInto('t')
        .values({ n: 200 })
        .execute()
        .then(() => events.push('other write done'));
      await sleep(50); // the event loop runs other requests while the transaction is open
      events.push('transaction fails');
      throw new Error('refused');
    });
    await expect(failed).rejects.toThrow('refused');
    await other;
    expect(events).toEqual(['transaction fails', 'other write done']);
    const rows = await db.selectFrom('t').select('n').orderBy('n').execute();
    expect(rows.map((r) => r.n)).toEqual([1, 200]); // the rollback took only the transaction's own row
  });

  it('bounds the wait behind this process’s own long transaction by the same budget', async () => {
    const db = await open();
    handle.lockWait.ms = 100;
    let waited: unknown = null;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ n: 2 }).execute();
      waited = await db
        .insertInto('t')
        .values({ n: 3 })
        .execute()
        .then(
          () => null,
          (e: unknown) => e,
        );
    });
    expect(isDatabaseBusy(waited)).toBe(true);
    expect(await count(db)).toBe(2);
  });

  it('answers reads outside a write from committed data, also while a transaction is open', async () => {
    const db = await open();
    const seen: number[] = [];
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ n: 2 }).execute();
      seen.push(await count(trx)); // the transaction sees its own row
      seen.push(await count(db)); // a shopper's read does not see it before the commit
    });
    seen.push(await count(db));
    expect(seen).toEqual([2, 1, 2]);
  });

  it('lets timers and I/O run between the statements of a long transaction', async () => {
    const db = await open();
    const events: string[] = [];
    await db.transaction().execute(async (trx) => {
      setTimeout(() => events.push('timer'), 0);
      for (let i = 0; i < 20; i++) {
        const until = performance.now() + 2;
        while (performance.now() < until); // 2 ms of work per statement, 40 ms in all
        await trx.insertInto('t').values({ n: i }).execute();
      }
      events.push('transaction done');
    });
    expect(events).toEqual(['timer', 'transaction done']);
  });

  it('never reads the storefront revision from inside an open transaction', async () => {
    const db = await open();
    await sql`CREATE TABLE app_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`.execute(db);
    await sql`INSERT INTO app_meta VALUES ('storefront_revision', '7')`.execute(db);
    const onWriter = revisionReader(handle.sqlite);
    const onReader = revisionReader(handle.reader);
    const seen: Array<string | null> = [];
    await db.transaction().execute(async (trx) => {
      await sql`UPDATE app_meta SET value = '8'`.execute(trx);
      seen.push(currentRevision(onWriter), currentRevision(onReader));
    });
    seen.push(currentRevision(onWriter), currentRevision(onReader));
    expect(seen).toEqual([null, '7', '8', '8']);
  });
});
