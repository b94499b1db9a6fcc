import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerSession as owner } from '../../test-support/orders.js';
import { insertDeliveredOrder, insertReturn, insertStockedProduct } from '../../test-support/returns.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

const staff = { ...owner, id: 2, email: 'packer@shop.example', role: 'staff' as const };

/** The returns seen from around them: the audit of a decline, and the order's detail listing its returns. */
describe('a return in the audit and on its order', () => {
  let store: TestStore;
  let n = 800;
  const asOwner = () => store.caller({ admin: owner });
  const asStaff = () => store.caller({ admin: staff });
  const db = () => store.handle.db;

  beforeAll(async () => {
    store = await createTestStore();
    await insertStockedProduct(db(), 'k_links', { M: 5, L: 5 });
  });
  afterAll(async () => store.cleanup());

  async function orderWithReturn(tag: string, resolution: 'exchange' | 'refund' = 'exchange') {
    const order = `ord_${tag}`;
    const [line] = await insertDeliveredOrder(db(), {
      id: order,
      number: n++,
      lines: [{ productId: 'k_links', size: 'M', quantity: 2, unitPriceMinor: 5000 }],
    });
    const id = `ret_${tag}`;
    await insertReturn(db(), {
      id,
      orderId: order,
      resolution,
      lines: [{ lineId: line ?? 0, quantity: 1, exchangeSize: 'L' }],
    });
    return { order, line: line ?? 0, id };
  }

  const declineChanges = async (id: string) => {
    const rows = await db()
      .selectFrom('admin_audit')
      .select('details')
      .where('action', '=', 'admin.returns.decline')
      .where('target', '=', id)
      .execute();
    return rows.map((r) => (JSON.parse(r.details) as { changes?: unknown }).changes);
  };

  it('records the status a decline moved the return from', async () => {
    const waiting = await orderWithReturn('decline_requested');
    await asStaff().admin.returns.decline({ id: waiting.id, reason: 'Outside the window' });
    expect(await declineChanges(waiting.id)).toEqual([
      [{ field: 'status', from: 'requested', to: 'declined' }],
    ]);

    const approved = await orderWithReturn('decline_approved');
    await asOwner().admin.returns.approve({ id: approved.id });
    await asOwner().admin.returns.decline({ id: approved.id, reason: 'The parcel never came' });
    expect(await declineChanges(approved.id)).toEqual([
      [{ field: 'status', from: 'approved', to: 'declined' }],
    ]);
  });

  it('names the status it really left when an approval races the decline', async () => {
    for (const tag of ['race_1', 'race_2', 'race_3']) {
      const { id } = await orderWithReturn(tag);
      const [approve, decline] = await Promise.allSettled([
        asOwner().admin.returns.approve({ id }),
        asStaff().admin.returns.decline({ id, reason: 'Changed our mind' }),
      ]);
      expect(decline.status, tag).toBe('fulfilled');
      // Approved first: the decline left 'approved'. Declined first: the approval was refused.
      const from = approve.status === 'fulfilled' ? 'approved' : 'requested';
      expect(await declineChanges(id), tag).toEqual([[{ field: 'status', from, to: 'declined' }]]);
    }
  });

  it('lists the order’s returns on admin.orders.byId, for staff too, and only its own', async () => {
    const first = await orderWithReturn('byid');
    await insertReturn(db(), {
      id: 'ret_byid_2',
      orderId: first.order,
      status: 'closed',
      resolution: 'refund',
      lines: [{ lineId: first.line, quantity: 1 }],
    });
    await db()
      .updateTable('returns')
      .set({ created_at: '2026-11-23T09:00:00.000Z' })
      .where('id', '=', 'ret_byid_2')
      .execute();
    const other = await orderWithReturn('byid_other', 'refund');

    const expected = [
      { id: first.id, status: 'requested', resolution: 'exchange', createdAt: '2026-11-22T09:00:00.000Z' },
      { id: 'ret_byid_2', status: 'closed', resolution: 'refund', createdAt: '2026-11-23T09:00:00.000Z' },
    ];
    expect((await asOwner().admin.orders.byId({ id: first.order })).returns).toEqual(expected);
    expect((await asStaff().admin.orders.byId({ id: first.order })).returns).toEqual(expected);
    expect((await asStaff().admin.orders.byId({ id: other.order })).returns).toEqual([
      { id: other.id, status: 'requested', resolution: 'refund', createdAt: '2026-11-22T09:00:00.000Z' },
    ]);

    const [line] = await insertDeliveredOrder(db(), {
      id: 'ord_no_returns',
      number: n++,
      lines: [{ productId: 'k_links', size: 'M', quantity: 1, unitPriceMinor: 5000 }],
    });
    expect(line).toBeGreaterThan(0);
    expect((await asStaff().admin.orders.byId({ id: 'ord_no_returns' })).returns).toEqual([]);
  });
});
