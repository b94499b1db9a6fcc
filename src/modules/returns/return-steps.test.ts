import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerSession as owner } from '../../test-support/orders.js';
import {
  insertDeliveredOrder,
  insertReturn,
  insertStockedProduct,
  stockOf,
} from '../../test-support/returns.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

const staff = { ...owner, id: 2, email: 'packer@shop.example', role: 'staff' as const };

describe('the owner’s steps of a return', () => {
  let store: TestStore;
  let n = 100;
  const asOwner = () => store.caller({ admin: owner });
  const asStaff = () => store.caller({ admin: staff });
  const db = () => store.handle.db;

  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(async () => store.cleanup());

  /** A kurta of its own (so stock counts start clean) bought in M, delivered; returned for L. */
  async function exchangeOfMForL(tag: string, opts: { hold?: boolean; lOnHand?: number } = {}) {
    const product = `k_${tag}`;
    await insertStockedProduct(db(), product, { M: 5, L: opts.lOnHand ?? 3 });
    const order = `ord_${tag}`;
    const [line] = await insertDeliveredOrder(db(), {
      id: order,
      number: n++,
      lines: [{ productId: product, size: 'M', quantity: 1, unitPriceMinor: 5000 }],
    });
    const id = `ret_${tag}`;
    await insertReturn(db(), {
      id,
      orderId: order,
      resolution: 'exchange',
      lines: [{ lineId: line ?? 0, quantity: 1, exchangeSize: 'L' }],
      hold: opts.hold ?? true,
    });
    return { product, order, line: line ?? 0, id };
  }

  const events = (orderId: string) =>
    db()
      .selectFrom('order_events')
      .select(['kind', 'actor', 'detail'])
      .where('order_id', '=', orderId)
      .where('kind', 'like', 'return_%')
      .orderBy('id')
      .execute();
  const mails = (orderId: string) =>
    db()
      .selectFrom('email_outbox')
      .select(['kind', 'subject'])
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .execute();
  const audit = () =>
    db()
      .selectFrom('admin_audit')
      .select(['action', 'target'])
      .where('action', 'like', 'admin.returns.%')
      .execute();

  it('walks an exchange: approved, received with M restocked, L held then sold, shipped with tracking', async () => {
    const { product, order, line, id } = await exchangeOfMForL('exchange');
    expect(await stockOf(db(), product, 'L')).toEqual({ on_hand: 3, reserved: 1 });

    expect(await asStaff().admin.returns.approve({ id })).toEqual({ id, status: 'approved' });
    const received = await asStaff().admin.returns.receive({
      id,
      condition: 'Unworn, tags on',
      restock: [{ lineId: line, quantity: 1 }],
    });
    expect(received).toMatchObject({ status: 'received', restockedUnits: 1 });
    expect(await stockOf(db(), product, 'M')).toEqual({ on_hand: 6, reserved: 0 });

    const detail = await asStaff().admin.returns.get({ id });
    expect(detail.can).toEqual({
      approve: false,
      decline: false,
      receive: false,
      closeExchange: true,
      closeRefund: false,
      recordDifferencePaid: false,
      refundDifference: false,
    });
    expect(detail.lines).toEqual([
      expect.objectContaining({ lineId: line, quantity: 1, exchangeSize: 'L', held: 1, restocked: 1 }),
    ]);

    await asStaff().admin.returns.closeExchange({ id, carrier: 'TCS', trackingNumber: 'TCS123' });
    expect(await stockOf(db(), product, 'L')).toEqual({ on_hand: 2, reserved: 0 });
    expect(await stockOf(db(), product, 'M')).toEqual({ on_hand: 6, reserved: 0 });
    const closed = await asOwner().admin.returns.get({ id });
    expect(closed).toMatchObject({
      status: 'closed',
      conditionNote: 'Unworn, tags on',
      exchangeTracking: { carrier: 'TCS', number: 'TCS123' },
      order: { id: order },
    });
    expect(closed.lines[0]).toMatchObject({ held: 0 });

    expect((await events(order)).map((e) => e.kind)).toEqual([
      'return_approved',
      'return_received',
      'return_closed',
    ]);
    expect((await mails(order)).filter((m) => m.kind === 'return_step')).toHaveLength(3);
    const timeline = (await asStaff().admin.orders.byId({ id: order })).timeline;
    expect(timeline.map((t) => [t.label, t.detail])).toEqual(
      expect.arrayContaining([
        ['Return approved', null],
        ['Return received', 'Unworn, tags on'],
        ['Exchange shipped', 'TCS · TCS123'],
      ]),
    );
    expect(await audit()).toEqual(
      expect.arrayContaining([
        { action: 'admin.returns.approve', target: id },
        { action: 'admin.returns.receive', target: id },
        { action: 'admin.returns.closeExchange', target: id },
      ]),
    );
    // A second receive, a second shipment: refused, nothing moves twice.
    await expect(
      asOwner().admin.returns.receive({ id, restock: [{ lineId: line, quantity: 1 }] }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(
      asOwner().admin.returns.closeExchange({ id, carrier: 'TCS', trackingNumber: 'again' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await stockOf(db(), product, 'M')).toEqual({ on_hand: 6, reserved: 0 });
    expect(await stockOf(db(), product, 'L')).toEqual({ on_hand: 2, reserved: 0 });
  });

  it('restocks only the units the owner names, never more than came back, each once', async () => {
    const product = 'k_partial';
    await insertStockedProduct(db(), product, { M: 0 });
    const [line] = await insertDeliveredOrder(db(), {
      id: 'ord_partial',
      number: n++,
      lines: [{ productId: product, size: 'M', quantity: 3, unitPriceMinor: 5000 }],
    });
    await insertReturn(db(), {
      id: 'ret_partial',
      orderId: 'ord_partial',
      status: 'approved',
      resolution: 'refund',
      reason: 'damaged',
      lines: [{ lineId: line ?? 0, quantity: 2 }],
    });
    await expect(
      asOwner().admin.returns.receive({ id: 'ret_partial', restock: [{ lineId: line ?? 0, quantity: 3 }] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('only 2 came back') });
    await expect(
      asOwner().admin.returns.receive({ id: 'ret_partial', restock: [{ lineId: 999_999, quantity: 1 }] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    // The refusals changed nothing: the return is still waiting for its parcel.
    expect((await asOwner().admin.returns.get({ id: 'ret_partial' })).status).toBe('approved');
    const done = await asOwner().admin.returns.receive({
      id: 'ret_partial',
      condition: 'One stained',
      restock: [{ lineId: line ?? 0, quantity: 1 }],
    });
    expect(done.restockedUnits).toBe(1);
    expect(await stockOf(db(), product, 'M')).toEqual({ on_hand: 1, reserved: 0 });
  });

  it('puts a colour’s units back on that colour’s own count', async () => {
    const product = 'k_colour';
    await insertStockedProduct(db(), product, { M: 4 });
    await db()
      .insertInto('size_stock')
      .values({ product_id: product, colour: 'sea green', size: 'M', on_hand: 1 })
      .execute();
    const [line] = await insertDeliveredOrder(db(), {
      id: 'ord_colour',
      number: n++,
      lines: [{ productId: product, size: 'M', quantity: 1, unitPriceMinor: 5000, colour: 'Sea Green' }],
    });
    await insertReturn(db(), {
      id: 'ret_colour',
      orderId: 'ord_colour',
      status: 'approved',
      resolution: 'refund',
      reason: 'not_as_pictured',
      lines: [{ lineId: line ?? 0, quantity: 1 }],
    });
    await asOwner().admin.returns.receive({
      id: 'ret_colour',
      restock: [{ lineId: line ?? 0, quantity: 1 }],
    });
    const counts = await db()
      .selectFrom('size_stock')
      .select(['colour', 'on_hand'])
      .where('product_id', '=', product)
      .orderBy('colour')
      .execute();
    expect(counts).toEqual([
      { colour: '', on_hand: 4 },
      { colour: 'sea green', on_hand: 2 },
    ]);
  });

  it('declining gives the held replacement back, and only a waiting return can be declined', async () => {
    const { product, id, order } = await exchangeOfMForL('decline');
    expect(await stockOf(db(), product, 'L')).toEqual({ on_hand: 3, reserved: 1 });
    await asStaff().admin.returns.decline({ id, reason: 'Worn and washed' });
    expect(await stockOf(db(), product, 'L')).toEqual({ on_hand: 3, reserved: 0 });
    const detail = await asOwner().admin.returns.get({ id });
    expect(detail).toMatchObject({ status: 'declined', declineReason: 'Worn and washed' });
    expect(detail.lines[0]).toMatchObject({ held: 0 });
    expect((await events(order)).map((e) => e.kind)).toEqual(['return_declined']);
    await expect(asOwner().admin.returns.approve({ id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('declined'),
    });
    await expect(asOwner().admin.returns.decline({ id, reason: 'again' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await stockOf(db(), product, 'L')).toEqual({ on_hand: 3, reserved: 0 });
  });

  it('two admins approving at once: one approval, one event, one email', async () => {
    const { id, order } = await exchangeOfMForL('race_approve');
    const results = await Promise.allSettled([
      asOwner().admin.returns.approve({ id }),
      asStaff().admin.returns.approve({ id }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toMatchObject({ code: 'CONFLICT' });
    expect((await events(order)).map((e) => e.kind)).toEqual(['return_approved']);
    expect((await mails(order)).filter((m) => m.kind === 'return_step')).toHaveLength(1);
  });

  it('two admins receiving at once: the units go back once', async () => {
    const { id, product, line } = await exchangeOfMForL('race_receive');
    await asOwner().admin.returns.approve({ id });
    const receive = () => asOwner().admin.returns.receive({ id, restock: [{ lineId: line, quantity: 1 }] });
    const results = await Promise.allSettled([receive(), receive()]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await stockOf(db(), product, 'M')).toEqual({ on_hand: 6, reserved: 0 });
  });

  it('a price change after the request does not move the stored difference: the exchange ships as asked', async () => {
    const { id, product, line } = await exchangeOfMForL('price');
    await asOwner().admin.returns.approve({ id });
    await asOwner().admin.returns.receive({ id, restock: [{ lineId: line, quantity: 1 }] });
    await db().updateTable('products').set({ price_minor: 6500 }).where('id', '=', product).execute();
    expect(
      await asOwner().admin.returns.closeExchange({ id, carrier: 'TCS', trackingNumber: 'T1' }),
    ).toMatchObject({ status: 'closed', differenceStatus: 'none', refund: null });
    expect((await asOwner().admin.returns.get({ id })).difference).toBeNull();
    expect(await stockOf(db(), product, 'L')).toEqual({ on_hand: 2, reserved: 0 });
  });

  it('keeps steps in order: no receive before approval, no refund of an exchange, no shipment of a refund', async () => {
    const { id } = await exchangeOfMForL('order_of_steps');
    await expect(asOwner().admin.returns.receive({ id, restock: [] })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(
      asOwner().admin.returns.closeExchange({ id, carrier: 'TCS', trackingNumber: 'T1' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(asOwner().admin.returns.closeRefund({ id, paidVia: 'cash' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(asOwner().admin.returns.approve({ id: 'ret_nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(asOwner().admin.returns.get({ id: 'ret_nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('staff move parcels but never refund, and see no money', async () => {
    const product = 'k_staff';
    await insertStockedProduct(db(), product, { M: 1 });
    const [line] = await insertDeliveredOrder(db(), {
      id: 'ord_staff',
      number: n++,
      lines: [{ productId: product, size: 'M', quantity: 1, unitPriceMinor: 5000 }],
    });
    await insertReturn(db(), {
      id: 'ret_staff',
      orderId: 'ord_staff',
      status: 'received',
      resolution: 'refund',
      reason: 'changed_mind',
      lines: [{ lineId: line ?? 0, quantity: 1 }],
    });
    await expect(asStaff().admin.returns.closeRefund({ id: 'ret_staff' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const seen = await asStaff().admin.returns.get({ id: 'ret_staff' });
    expect(seen.can.closeRefund).toBe(false);
    expect((await asOwner().admin.returns.get({ id: 'ret_staff' })).can.closeRefund).toBe(true);
    await asOwner().admin.returns.closeRefund({ id: 'ret_staff' });
    expect((await asStaff().admin.returns.get({ id: 'ret_staff' })).refundedMinor).toBeNull();
    expect((await asOwner().admin.returns.get({ id: 'ret_staff' })).refundedMinor).toBe(5000);
    const listed = await asStaff().admin.returns.list({ status: 'closed' });
    expect(listed.items.find((r) => r.id === 'ret_staff')).toMatchObject({ refundedMinor: null, units: 1 });
    const ownerList = await asOwner().admin.returns.list({ status: 'closed' });
    expect(ownerList.items.find((r) => r.id === 'ret_staff')).toMatchObject({ refundedMinor: 5000 });
  });

  it('answers hostile inputs with a clear refusal and changes nothing', async () => {
    const { id, product, line } = await exchangeOfMForL('hostile');
    const other = await exchangeOfMForL('hostile_other');
    await asOwner().admin.returns.approve({ id });
    const refusals: Array<[string, () => Promise<unknown>, string]> = [
      [
        'a line twice',
        () =>
          asOwner().admin.returns.receive({
            id,
            restock: [
              { lineId: line, quantity: 1 },
              { lineId: line, quantity: 1 },
            ],
          }),
        'BAD_REQUEST',
      ],
      [
        'another return’s line',
        () => asOwner().admin.returns.receive({ id, restock: [{ lineId: other.line, quantity: 1 }] }),
        'BAD_REQUEST',
      ],
      [
        'negative units',
        () => asOwner().admin.returns.receive({ id, restock: [{ lineId: line, quantity: -1 }] }),
        'BAD_REQUEST',
      ],
      [
        'fractional units',
        () => asOwner().admin.returns.receive({ id, restock: [{ lineId: line, quantity: 0.5 }] }),
        'BAD_REQUEST',
      ],
      [
        '51 lines',
        () =>
          asOwner().admin.returns.receive({
            id,
            restock: Array.from({ length: 51 }, (_, i) => ({ lineId: i + 1, quantity: 1 })),
          }),
        'BAD_REQUEST',
      ],
      [
        'a long condition',
        () => asOwner().admin.returns.receive({ id, condition: 'x'.repeat(1001) }),
        'BAD_REQUEST',
      ],
      ['SQL as an id', () => asOwner().admin.returns.approve({ id: "' OR 1=1 --" }), 'NOT_FOUND'],
      ['a 101-character id', () => asOwner().admin.returns.get({ id: 'r'.repeat(101) }), 'BAD_REQUEST'],
      ['a blank decline reason', () => asOwner().admin.returns.decline({ id, reason: '   ' }), 'BAD_REQUEST'],
      [
        'a blank carrier',
        () => asOwner().admin.returns.closeExchange({ id, carrier: ' ', trackingNumber: 'T' }),
        'BAD_REQUEST',
      ],
      [
        'an unknown status',
        () => asOwner().admin.returns.list({ status: 'lost' as 'closed' }),
        'BAD_REQUEST',
      ],
      [
        'an empty product id',
        () => asOwner().admin.returns.reasonsByProduct({ productId: '' }),
        'BAD_REQUEST',
      ],
    ];
    for (const [what, call, code] of refusals) {
      await expect(call(), what).rejects.toMatchObject({ code });
    }
    expect((await asOwner().admin.returns.get({ id })).status).toBe('approved');
    expect(await stockOf(db(), product, 'M')).toEqual({ on_hand: 5, reserved: 0 });
  });

  it('lists returns by step, newest first, a page at a time', async () => {
    const all = await asOwner().admin.returns.list({ limit: 2 });
    expect(all.items).toHaveLength(2);
    expect(all.nextCursor).toBe(2);
    const requested = await asOwner().admin.returns.list({ status: 'requested', limit: 100 });
    expect(requested.items.every((r) => r.status === 'requested')).toBe(true);
  });
});
