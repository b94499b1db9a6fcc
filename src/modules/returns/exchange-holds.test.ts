import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETURN_SETTINGS } from '../../shared/returns.js';
import { insertProducts } from '../../test-support/fixtures.js';
import { insertOrderRow } from '../../test-support/orders.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { holdExchangeUnits, releaseExchangeHolds, sellExchangeHolds } from './exchange-holds.js';
import { readReturnSettings } from './return-settings.js';

const NOW = '2026-11-22T10:00:00.000Z';

/** The holds H2's owner steps build on (decision 0039), on the engine under test. */
describe('exchange holds', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
    const db = store.handle.db;
    await insertProducts(db, [
      { id: 'kurta', title: 'Lawn Kurta', price_minor: 8900, sizes: '["S","M","L"]' },
    ]);
    await db
      .insertInto('size_stock')
      .values({ product_id: 'kurta', colour: '', size: 'L', on_hand: 3 })
      .execute();
    await insertOrderRow(db, { id: 'o1', number: 1001, created_at: NOW });
    const line = await db
      .insertInto('order_lines')
      .values({
        order_id: 'o1',
        product_id: 'kurta',
        title: 'Lawn Kurta',
        size: 'M',
        quantity: 2,
        unit_price_minor: 8900,
        line_total_minor: 17800,
        image_url: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('returns')
      .values({
        id: 'ret_1',
        order_id: 'o1',
        status: 'approved',
        reason: 'too_small',
        reason_text: null,
        resolution: 'exchange',
        decline_reason: null,
        condition_note: null,
        exchange_carrier: null,
        exchange_tracking: null,
        refunded_minor: null,
        currency: 'usd',
        created_at: NOW,
        updated_at: NOW,
        approved_at: NOW,
        received_at: null,
        closed_at: null,
      })
      .execute();
    await db
      .insertInto('return_lines')
      .values({
        return_id: 'ret_1',
        order_line_id: line.id,
        quantity: 2,
        exchange_colour: '',
        exchange_size: 'L',
      })
      .execute();
  });
  afterEach(async () => store.cleanup());

  const stockL = () =>
    store.handle.db
      .selectFrom('size_stock')
      .select(['on_hand', 'reserved'])
      .where('size', '=', 'L')
      .executeTakeFirstOrThrow();
  const held = async () =>
    (await store.handle.db.selectFrom('return_lines').select('held').executeTakeFirstOrThrow()).held;
  const run = (fn: typeof holdExchangeUnits) =>
    store.handle.db.transaction().execute((trx) => fn(trx, 'ret_1'));

  it('holds once, sells the held units once', async () => {
    await run(holdExchangeUnits);
    await run(holdExchangeUnits);
    expect(await stockL()).toEqual({ on_hand: 3, reserved: 2 });
    expect(await held()).toBe(2);
    await run(sellExchangeHolds);
    await run(sellExchangeHolds);
    expect(await stockL()).toEqual({ on_hand: 1, reserved: 0 });
    expect(await held()).toBe(0);
  });

  it('releases once, and refuses a hold when too few are left', async () => {
    await run(holdExchangeUnits);
    await run(releaseExchangeHolds);
    await run(releaseExchangeHolds);
    expect(await stockL()).toEqual({ on_hand: 3, reserved: 0 });
    await store.handle.db.updateTable('size_stock').set({ on_hand: 1 }).execute();
    await expect(run(holdExchangeUnits)).rejects.toThrow(/only 1 left/);
    expect(await stockL()).toEqual({ on_hand: 1, reserved: 0 });
  });

  it('holds nothing of an untracked size', async () => {
    await store.handle.db.deleteFrom('size_stock').execute();
    await run(holdExchangeUnits);
    expect(await held()).toBe(0);
    await run(releaseExchangeHolds);
  });
});

describe('return settings', () => {
  it('reads defaults for a store that never set them, and field by field over nonsense', () => {
    expect(readReturnSettings('{}')).toEqual(DEFAULT_RETURN_SETTINGS);
    expect(readReturnSettings('not json')).toEqual(DEFAULT_RETURN_SETTINGS);
    expect(
      readReturnSettings(
        JSON.stringify({
          windowDays: 400,
          refundReasons: ['damaged', 'lost'],
          postagePaidBy: 'shop',
          finalSaleTags: [' Clearance '],
        }),
      ),
    ).toEqual({
      ...DEFAULT_RETURN_SETTINGS,
      postagePaidBy: 'shop',
      finalSaleTags: ['clearance'],
    });
  });
});
