import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { statementCache } from './statement-cache.js';
import { StoreDialect } from './store-dialect.js';

type Db = { t: { id: number; name: string } };

/** The store's driver on one in-memory connection (no reader), which prepares through the cache. */
const storeDb = (sqlite: SQLite.Database) =>
  new Kysely<Db>({ dialect: new StoreDialect({ writer: sqlite, reader: null, lockWait: { ms: 5000 } }) });

function open() {
  const sqlite = new SQLite(':memory:');
  let prepared = 0;
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((text: string) => {
    prepared++;
    return prepare(text);
  }) as typeof sqlite.prepare;
  return { db: storeDb(sqlite), prepared: () => prepared };
}

describe('statement cache', () => {
  it('prepares each SQL text once and answers correctly with new parameters each time', async () => {
    const { db, prepared } = open();
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`.execute(db);
    for (let i = 1; i <= 50; i++)
      await db
        .insertInto('t')
        .values({ id: i, name: `n${i}` })
        .execute();
    const before = prepared();
    for (let i = 1; i <= 50; i++) {
      const row = await db.selectFrom('t').select('name').where('id', '=', i).executeTakeFirst();
      expect(row?.name).toBe(`n${i}`);
    }
    expect(prepared() - before).toBe(1);
    await db.destroy();
  });

  it('keeps working after the schema changes under a reused statement', async () => {
    const { db } = open();
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`.execute(db);
    await db.insertInto('t').values({ id: 1, name: 'a' }).execute();
    const read = () => sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(db);
    expect((await read()).rows[0]?.n).toBe(1);
    await sql`ALTER TABLE t ADD COLUMN extra TEXT`.execute(db);
    await sql`CREATE INDEX t_name ON t (name)`.execute(db);
    await db.insertInto('t').values({ id: 2, name: 'b' }).execute();
    expect((await read()).rows[0]?.n).toBe(2);
    await db.destroy();
  });

  it('holds at most its bound of statements, the least recently used going first', () => {
    const sqlite = new SQLite(':memory:');
    let prepared = 0;
    const original = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((text: string) => {
      prepared++;
      return original(text);
    }) as typeof sqlite.prepare;
    const prepare = statementCache(sqlite, 3);
    const q = (n: number) => prepare(`SELECT ${n} AS n`).get();
    q(1);
    q(2);
    q(3);
    q(1); // refreshed
    q(4); // evicts 2
    const before = prepared;
    q(1);
    q(3);
    q(4);
    expect(prepared).toBe(before);
    q(2);
    expect(prepared).toBe(before + 1);
    sqlite.close();
  });

  it('lets a transaction SQLite already rolled back (database full) fail with its own cause', async () => {
    const sqlite = new SQLite(':memory:');
    const db = storeDb(sqlite);
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`.execute(db);
    sqlite.pragma(`max_page_count = ${Number(sqlite.pragma('page_count', { simple: true }))}`);
    const failure = db.transaction().execute(async (trx) => {
      for (let i = 0; i < 1000; i++)
        await trx
          .insertInto('t')
          .values({ id: i, name: 'x'.repeat(500) })
          .execute();
    });
    await expect(failure).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(sqlite.inTransaction).toBe(false);
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(db)).rows[0]?.n).toBe(0);
    await db.destroy();
  });
});
