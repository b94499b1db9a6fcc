import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RefundStatus } from '../../db/database.js';
import type { DiscountFormValues } from '../../shared/discount-input.js';
import { emptyDiscountForm } from '../../shared/discount-input.js';
import { refundableForUnits } from '../../shared/discounts.js';
import { insertOrderRow } from '../../test-support/orders.js';
import {
  createAdmin,
  createTestStore,
  fixedClock,
  SESSION_FACTS,
  type TestStore,
} from '../../test-support/test-store.js';
import { listDiscounts } from './discounts-admin.repository.js';

/** The admin's sales and codes (issue 41, decision 0037), on the engine under test. */

// fixedClock: 2026-11-22T10:00Z. The shop is in Karachi (UTC+5, no daylight saving).
const ZONE = 'Asia/Karachi';

const sale = (over: Partial<DiscountFormValues> = {}): DiscountFormValues => ({
  ...emptyDiscountForm('usd'),
  name: 'Eid 20% off women’s lawn',
  percent: '20',
  scopeKind: 'tags',
  tags: ['women', 'lawn'],
  startsAt: '2026-11-23T00:00',
  ...over,
});

const code = (over: Partial<DiscountFormValues> = {}): DiscountFormValues => ({
  ...emptyDiscountForm('usd'),
  kind: 'code',
  name: 'Eid code',
  code: 'EID10',
  percent: '10',
  target: 'order',
  startsAt: '2026-11-01T00:00',
  minOrder: '100',
  maxUses: '50',
  ...over,
});

describe('the admin’s sales and codes', () => {
  let store: TestStore;
  let ownerId: number;
  beforeAll(async () => {
    store = await createTestStore();
    ownerId = await createAdmin(store, 'owner@shop.example', 'correct horse battery');
  });
  afterAll(() => store.cleanup());
  beforeEach(async () => {
    await store.handle.db.deleteFrom('refunds').execute();
    await store.handle.db.deleteFrom('order_lines').execute();
    await store.handle.db.deleteFrom('orders').execute();
    await store.handle.db.deleteFrom('discounts').execute();
    await store.handle.db.deleteFrom('admin_audit').execute();
    await store.handle.db.updateTable('settings').set({ time_zone: ZONE }).where('id', '=', 1).execute();
  });

  const as = (role: 'owner' | 'staff', confirmedAt: string | null = SESSION_FACTS.confirmedAt) =>
    store.caller({
      admin: {
        id: ownerId,
        email: `${role}@shop.example`,
        loginAt: fixedClock.now().toISOString(),
        role,
        ...SESSION_FACTS,
        confirmedAt,
      },
    });
  const owner = () => as('owner');

  it('creates a sale and a code in the shop’s time zone, and lists them with their status', async () => {
    const { id: saleId } = await owner().admin.discounts.create({ fields: sale() });
    const { id: codeId } = await owner().admin.discounts.create({ fields: code() });
    const row = await store.handle.db
      .selectFrom('discounts')
      .selectAll()
      .where('id', '=', saleId)
      .executeTakeFirstOrThrow();
    // Midnight in Karachi is 19:00 UTC the day before.
    expect(row).toMatchObject({
      kind: 'sale',
      starts_at: '2026-11-22T19:00:00.000Z',
      percent: 20,
      code_key: null,
    });

    const list = await owner().admin.discounts.list();
    expect(list.timeZone).toBe(ZONE);
    const byId = new Map(list.items.map((d) => [d.id, d]));
    expect(byId.get(saleId)).toMatchObject({ status: 'scheduled', scope: { tags: ['women', 'lawn'] } });
    expect(byId.get(saleId)?.form.startsAt).toBe('2026-11-23T00:00');
    expect(byId.get(codeId)).toMatchObject({
      status: 'running',
      code: 'EID10',
      minOrderMinor: 10000,
      maxUses: 50,
      uses: 0,
      target: 'order',
    });
    expect(byId.get(codeId)?.form).toMatchObject({ minOrder: '100.00', maxUses: '50', code: 'EID10' });
  });

  it('says scheduled, running, ended and used up at the given times', async () => {
    const { id } = await owner().admin.discounts.create({ fields: sale({ endsAt: '2026-11-30T00:00' }) });
    const { id: codeId } = await owner().admin.discounts.create({ fields: code({ maxUses: '2' }) });
    const statusAt = async (iso: string, which = id) =>
      (await listDiscounts(store.handle.db, new Date(iso))).find((d) => d.id === which)?.status;
    expect(await statusAt('2026-11-22T18:59:59.999Z')).toBe('scheduled');
    expect(await statusAt('2026-11-22T19:00:00.000Z')).toBe('running');
    expect(await statusAt('2026-11-29T18:59:59.999Z')).toBe('running');
    expect(await statusAt('2026-11-29T19:00:00.000Z')).toBe('ended');

    await store.handle.db.updateTable('discounts').set({ uses: 2 }).where('id', '=', codeId).execute();
    expect(await statusAt('2026-11-22T10:00:00.000Z', codeId)).toBe('used_up');
    const listed = (await owner().admin.discounts.list()).items.find((d) => d.id === codeId);
    expect(listed).toMatchObject({ uses: 2, status: 'used_up' });
  });

  it('refuses a code that exists already in any case, and keeps a used code’s text', async () => {
    const { id } = await owner().admin.discounts.create({ fields: code() });
    await expect(owner().admin.discounts.create({ fields: code({ code: 'eid10' }) })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This code exists already',
    });
    // Unused: the code may change; used: it may not, though the rest may.
    await owner().admin.discounts.update({ id, fields: code({ code: 'EID15' }) });
    await store.handle.db.updateTable('discounts').set({ uses: 3 }).where('id', '=', id).execute();
    await expect(
      owner().admin.discounts.update({ id, fields: code({ code: 'EID20' }) }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(
      owner().admin.discounts.update({ id, fields: code({ code: 'EID15', maxUses: '2' }) }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await owner().admin.discounts.update({ id, fields: code({ code: 'eid15', name: 'Eid, longer' }) });
    const got = await owner().admin.discounts.get({ id });
    expect(got).toMatchObject({ name: 'Eid, longer', code: 'eid15', uses: 3 });
    await expect(owner().admin.discounts.update({ id, fields: sale() })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('ends once, with a fresh confirmation, and the list says ended', async () => {
    const { id } = await owner().admin.discounts.create({ fields: code() });
    await expect(as('owner', null).admin.discounts.end({ id })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
    });
    expect(await owner().admin.discounts.end({ id })).toEqual({ ended: true });
    expect(await owner().admin.discounts.end({ id })).toEqual({ ended: false });
    const row = await store.handle.db
      .selectFrom('discounts')
      .select('ended_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.ended_at).toBe(fixedClock.now().toISOString());
    expect((await owner().admin.discounts.get({ id })).status).toBe('ended');
    await expect(owner().admin.discounts.end({ id: 'd_nothing' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('lets staff look but not change', async () => {
    const { id } = await owner().admin.discounts.create({ fields: code() });
    expect((await as('staff').admin.discounts.list()).items).toHaveLength(1);
    expect((await as('staff').admin.discounts.get({ id })).id).toBe(id);
    for (const change of [
      () => as('staff').admin.discounts.create({ fields: sale() }),
      () => as('staff').admin.discounts.update({ id, fields: code({ name: 'Mine' }) }),
      () => as('staff').admin.discounts.end({ id }),
    ]) {
      await expect(change()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    expect((await owner().admin.discounts.get({ id })).endedAt).toBeNull();
  });

  it('records every change in the audit, an edit as before and after', async () => {
    const { id } = await owner().admin.discounts.create({ fields: code() });
    await owner().admin.discounts.update({ id, fields: code({ percent: '15' }) });
    await owner().admin.discounts.end({ id });
    const rows = await store.handle.db
      .selectFrom('admin_audit')
      .select(['action', 'target', 'details'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.action)).toEqual([
      'admin.discounts.create',
      'admin.discounts.update',
      'admin.discounts.end',
    ]);
    expect(rows[1]?.target).toBe(id);
    const details = typeof rows[1]?.details === 'string' ? JSON.parse(rows[1].details) : rows[1]?.details;
    expect(details.changes).toEqual([
      { field: 'value', from: { type: 'percent', percent: 10 }, to: { type: 'percent', percent: 15 } },
    ]);
  });

  it('refuses hostile or wrong input field by field, and writes nothing', async () => {
    const refused = async (fields: DiscountFormValues, path: string) => {
      const error = await owner()
        .admin.discounts.create({ fields })
        .then(
          () => null,
          (e: { code?: string; cause?: { issues?: { path: PropertyKey[] }[] } }) => e,
        );
      expect(error?.code, path).toBe('BAD_REQUEST');
      expect(
        error?.cause?.issues?.map((i) => i.path.join('.')),
        path,
      ).toContain(path);
    };
    await refused(code({ code: 'E1' }), 'fields.code');
    await refused(code({ code: "EID'; DROP TABLE discounts;--" }), 'fields.code');
    await refused(code({ code: 'EID 10' }), 'fields.code');
    await refused(sale({ percent: '95' }), 'fields.percent');
    await refused(code({ percent: '101' }), 'fields.percent');
    await refused(sale({ valueType: 'free_shipping' }), 'fields.valueType');
    await refused(sale({ valueType: 'fixed', amount: '-5' }), 'fields.amount');
    await refused(sale({ name: '' }), 'fields.name');
    await refused(sale({ name: 'x'.repeat(101) }), 'fields.name');
    await refused(sale({ startsAt: '2026-02-31T00:00' }), 'fields.startsAt');
    await refused(sale({ endsAt: '2026-11-22T23:00' }), 'fields.endsAt');
    await refused(sale({ tags: [] }), 'fields.tags');
    await refused(
      sale({ scopeKind: 'products', products: Array.from({ length: 201 }, (_, i) => `p${i}`) }),
      'fields.products',
    );
    await refused(code({ maxUses: '0' }), 'fields.maxUses');
    await refused(code({ maxUsesPerEmail: '1.5' }), 'fields.maxUsesPerEmail');
    await refused(code({ minOrder: 'lots' }), 'fields.minOrder');
    expect(await store.handle.db.selectFrom('discounts').select('id').execute()).toEqual([]);
  });

  const at = fixedClock.now().toISOString();
  const order = (id: string, n: number, status: 'paid' | 'expired', over: Record<string, unknown>) =>
    insertOrderRow(store.handle.db, { id, number: n, created_at: at, status, ...over });
  const line = (orderId: string, regular: number, unit: number, quantity: number, sale: string | null) =>
    store.handle.db
      .insertInto('order_lines')
      .values({
        order_id: orderId,
        product_id: 'p1',
        title: 'Lawn',
        size: null,
        quantity,
        unit_price_minor: unit,
        regular_unit_price_minor: regular,
        line_total_minor: unit * quantity,
        image_url: null,
        sale_id: sale,
        sale_name: sale ? 'Eid' : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

  it('counts the paid orders each gave, their revenue and the discount, per currency', async () => {
    const { id: codeId } = await owner().admin.discounts.create({ fields: code() });
    const { id: saleId } = await owner().admin.discounts.create({ fields: sale() });
    // o1: the code and the sale (two sale lines: one order); o2: the sale in rupees; o3 expired: not counted.
    await order('o1', 1, 'paid', {
      total_minor: 14400,
      discount_minor: 1600,
      discount_id: codeId,
      discount_code: 'EID10',
    });
    await line('o1', 5000, 4000, 2, saleId);
    await line('o1', 10000, 8000, 1, saleId);
    await order('o2', 2, 'paid', { currency: 'pkr', total_minor: 80000 });
    await line('o2', 100000, 80000, 1, saleId);
    await order('o3', 3, 'expired', { total_minor: 900, discount_minor: 100, discount_id: codeId });
    await line('o3', 1000, 800, 1, saleId);

    const items = (await owner().admin.discounts.list()).items;
    expect(items.find((d) => d.id === codeId)?.stats).toEqual([
      { currency: 'usd', orders: 1, revenueMinor: 14400, discountMinor: 1600 },
    ]);
    expect(items.find((d) => d.id === saleId)?.stats).toEqual([
      { currency: 'pkr', orders: 1, revenueMinor: 80000, discountMinor: 20000 },
      { currency: 'usd', orders: 1, revenueMinor: 14400, discountMinor: 4000 },
    ]);
  });

  it('counts revenue net of what was refunded of those orders, succeeded refunds only', async () => {
    const { id: codeId } = await owner().admin.discounts.create({ fields: code() });
    const { id: saleId } = await owner().admin.discounts.create({ fields: sale() });
    await order('o1', 1, 'paid', { total_minor: 14400, discount_minor: 1600, discount_id: codeId });
    const kurtas = await line('o1', 5000, 4000, 2, saleId);
    await line('o1', 10000, 8000, 1, saleId);
    await order('o2', 2, 'paid', { currency: 'pkr', total_minor: 80000 });
    await line('o2', 100000, 80000, 1, saleId);
    // One of o1's two kurtas given back (its unit's share of the line), and 250 rupees off o2 by amount.
    const oneKurta = refundableForUnits({ quantity: 2, lineTotalMinor: 8000, refundedQuantity: 0 }, 1);
    const refund = (id: string, orderId: string, amount: number, status: RefundStatus, lines: unknown[]) =>
      store.handle.db
        .insertInto('refunds')
        .values({
          id,
          order_id: orderId,
          amount_minor: amount,
          currency: orderId === 'o2' ? 'pkr' : 'usd',
          reason: null,
          lines: JSON.stringify(lines),
          status,
          provider: 'demo',
          provider_refund_id: null,
          failure: status === 'failed' ? 'card_declined' : null,
          admin_email: 'owner@shop.example',
          created_at: at,
          updated_at: at,
        })
        .execute();
    await refund('rf1', 'o1', oneKurta, 'succeeded', [{ lineId: kurtas.id, quantity: 1 }]);
    await refund('rf2', 'o2', 250, 'succeeded', []);
    // Not money back: one still pending, one that failed.
    await refund('rf3', 'o1', 1000, 'pending', []);
    await refund('rf4', 'o1', 2000, 'failed', []);

    const items = (await owner().admin.discounts.list()).items;
    expect(items.find((d) => d.id === codeId)?.stats).toEqual([
      { currency: 'usd', orders: 1, revenueMinor: 14400 - 4000, discountMinor: 1600 },
    ]);
    expect(items.find((d) => d.id === saleId)?.stats).toEqual([
      { currency: 'pkr', orders: 1, revenueMinor: 80000 - 250, discountMinor: 20000 },
      { currency: 'usd', orders: 1, revenueMinor: 14400 - 4000, discountMinor: 4000 },
    ]);
  });
});
