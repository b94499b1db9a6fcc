import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { postgresMigrations } from '../../migrations/postgres/index.js';
import { insertProducts } from '../test-support/fixtures.js';
import {
  openThrowawayPostgres,
  openThrowawaySqlite,
  type ThrowawayStore,
} from '../test-support/throwaway-databases.js';

/**
 * The stock-alert address migration on a store whose shoppers signed up as `BIS1@x` and `bis1@x`: one wish
 * per address and size remains (the one still waiting, else the earliest), kept lower-case.
 */
type Engine = {
  name: string;
  list: typeof migrations;
  before: string;
  open(): Promise<ThrowawayStore>;
};

const engines: Engine[] = [
  {
    name: 'SQLite',
    list: migrations,
    before: '2026-11-26T0024-two-factor',
    async open() {
      return openThrowawaySqlite('store-alerts');
    },
  },
  {
    name: 'PostgreSQL',
    list: postgresMigrations,
    before: '2026-11-26T0013-two-factor',
    open: () => openThrowawayPostgres(2),
  },
];

describe.each(engines)('the stock-alert address migration on $name', (engine) => {
  let store: Awaited<ReturnType<Engine['open']>> | null = null;
  afterEach(async () => {
    await store?.close();
    store = null;
  });

  it('merges wishes that differ only in the case of their address, keeping the one still waiting', async () => {
    store = await engine.open();
    const { db } = store;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => engine.list } });
    expect((await migrator.migrateTo(engine.before)).error).toBeUndefined();
    // The products table is as the latest schema has it: the app's fixture fills it.
    await insertProducts(db, [{ id: 'k1', title: 'Mint Lawn Kurta', price_minor: 8500 }]);
    const alert = (email: string, size: string, day: number, notified: boolean) =>
      sql`INSERT INTO stock_alerts (product_id, size, email, created_at, notified_at)
        VALUES ('k1', ${size}, ${email}, ${`2026-01-0${day}T00:00:00.000Z`},
          ${notified ? '2026-01-09T00:00:00.000Z' : null})`.execute(db);
    await alert('BIS1@Example.com', 'M', 1, true); // told already
    await alert('bis1@example.com', 'M', 2, false); // signed up again: still waiting, kept
    await alert('Bis1@example.com', 'M', 3, false);
    await alert('bis1@example.com', 'L', 4, false); // another size: its own wish
    await alert('Ayesha@Example.com', 'M', 5, false); // alone: only lower-cased
    await alert('zara@example.com', 'M', 6, true);
    await alert('ZARA@example.com', 'M', 7, true); // both told: the earliest stays

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = (
      await sql<{ email: string; size: string; created_at: unknown; notified_at: unknown }>`
        SELECT email, size, created_at, notified_at FROM stock_alerts ORDER BY email, size`.execute(db)
    ).rows.map((r) => ({
      email: r.email,
      size: r.size,
      created: (r.created_at instanceof Date ? r.created_at.toISOString() : String(r.created_at)).slice(
        0,
        10,
      ),
      waiting: r.notified_at == null,
    }));
    expect(rows).toEqual([
      { email: 'ayesha@example.com', size: 'M', created: '2026-01-05', waiting: true },
      { email: 'bis1@example.com', size: 'L', created: '2026-01-04', waiting: true },
      { email: 'bis1@example.com', size: 'M', created: '2026-01-02', waiting: true },
      { email: 'zara@example.com', size: 'M', created: '2026-01-06', waiting: false },
    ]);
  });
});
