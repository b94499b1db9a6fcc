import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { insertProducts } from '../test-support/fixtures.js';
import { createTestStore, type TestStore, testEngine } from '../test-support/test-store.js';
import { durableTransaction, synchronousLevel } from './durable.js';

const NORMAL = 1;
const FULL = 2;

// SQLite's synchronous pragma: on PostgreSQL every commit is already flushed (synchronous_commit on), and
// durableTransaction is a plain transaction there.
describe.skipIf(testEngine === 'postgres')('durableTransaction', () => {
  let store: TestStore;
  afterEach(async () => store.cleanup());

  it('commits with synchronous=FULL and puts NORMAL back after, also when the work fails', async () => {
    store = await createTestStore();
    const db = store.handle.db;
    expect(await synchronousLevel(db)).toBe(NORMAL);
    const inside = await durableTransaction(db, async (trx) => {
      await insertProducts(trx, [{ id: 'p1' }]);
      return synchronousLevel(trx);
    });
    expect(inside).toBe(FULL);
    expect(store.handle.sqlite.pragma('synchronous', { simple: true })).toBe(NORMAL);

    await expect(
      durableTransaction(db, async (trx) => {
        await insertProducts(trx, [{ id: 'p2' }]);
        throw new Error('payment record refused');
      }),
    ).rejects.toThrow('payment record refused');
    expect(store.handle.sqlite.pragma('synchronous', { simple: true })).toBe(NORMAL);
    const ids = await db.selectFrom('products').select('id').execute();
    expect(ids).toEqual([{ id: 'p1' }]); // the failed one rolled back
  });

  it('never interleaves with other transactions on the shared handle (SQLite refuses the pragma inside one)', async () => {
    store = await createTestStore();
    const db = store.handle.db;
    const seen: Array<{ kind: string; level: number }> = [];
    const plain = (n: number) =>
      db.transaction().execute(async (trx) => {
        await sql`SELECT ${n}`.execute(trx);
        await new Promise((r) => setTimeout(r, 2)); // hold the transaction open across awaits
        seen.push({ kind: 'plain', level: await synchronousLevel(trx) });
      });
    const durable = (n: number) =>
      durableTransaction(db, async (trx) => {
        await sql`SELECT ${n}`.execute(trx);
        await new Promise((r) => setTimeout(r, 2));
        seen.push({ kind: 'durable', level: await synchronousLevel(trx) });
      });
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? plain(i) : durable(i))));
    expect(seen.filter((s) => s.kind === 'durable').every((s) => s.level === FULL)).toBe(true);
    expect(seen.filter((s) => s.kind === 'plain').every((s) => s.level === NORMAL)).toBe(true);
    expect(seen).toHaveLength(30);
    expect(store.handle.sqlite.pragma('synchronous', { simple: true })).toBe(NORMAL);
  });
});
