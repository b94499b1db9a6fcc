import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { type Discount, type PricedItem, priceLines, refundableForUnits } from '../../shared/discounts.js';
import { formatMoney, minorToMajorString } from '../../shared/money.js';
import { confirmationEmailOf, insertOrderRow, ownerSession as owner } from '../../test-support/orders.js';
import { createTestStore, type TestStore, tickingClock } from '../../test-support/test-store.js';
import { orderCsvRows } from './orders-csv.js';

const NOW = new Date('2026-11-28T10:00:00.000Z');
const SHIPPING = 25_000;

const discount = (d: Partial<Discount> & Pick<Discount, 'id' | 'kind' | 'name' | 'value'>): Discount => ({
  code: null,
  target: 'items',
  scope: {},
  startsAt: '2026-11-01T00:00:00.000Z',
  endsAt: null,
  endedAt: null,
  minOrderMinor: null,
  maxUses: null,
  maxUsesPerEmail: null,
  uses: 0,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...d,
});

/** Eid 20% off the kurta only; EID10, Rs 1,533.01 off the whole order (shared unevenly over both lines). */
const SALE = discount({
  id: 'sale_eid',
  kind: 'sale',
  name: 'Eid 20% off lawn',
  value: { type: 'percent', percent: 20 },
  scope: { products: ['k1'] },
});
const CODE = discount({
  id: 'code_eid10',
  kind: 'code',
  name: 'Eid ten',
  code: 'EID10',
  target: 'order',
  value: { type: 'fixed', amountMinor: 153_301, currency: 'pkr' },
});

const ITEMS: Array<PricedItem & { id: string; title: string; size: string }> = [
  {
    id: 'k1',
    title: 'Lawn Kurta',
    size: 'M',
    productId: 'k1',
    tags: [],
    colourKey: null,
    unitPriceMinor: 249_999,
    currency: 'pkr',
    quantity: 3,
  },
  {
    id: 'd1',
    title: 'Silk Dupatta',
    size: 'S',
    productId: 'd1',
    tags: [],
    colourKey: null,
    unitPriceMinor: 150_001,
    currency: 'pkr',
    quantity: 1,
  },
];

/** A paid demo order as checkout records one with a sale and a code (decision 0037), priced by priceLines. */
async function insertDiscountedOrder(db: Db, id: string, number: number) {
  const priced = priceLines(ITEMS, { sales: [SALE], code: CODE, now: NOW });
  const iso = NOW.toISOString();
  const paid = priced.totalMinor + SHIPPING;
  await insertOrderRow(db, {
    id,
    number,
    created_at: iso,
    currency: 'pkr',
    subtotal_minor: priced.subtotalMinor,
    total_minor: paid,
    customer_email: 'ayesha@example.com',
    customer_name: 'Ayesha Khan',
    access_token: `token-${id}`,
    discount_minor: priced.codeDiscountMinor,
    sales_minor: priced.salesMinor,
    discount_code: 'Eid10',
    discount_id: CODE.id,
  });
  await db
    .insertInto('order_lines')
    .values(
      ITEMS.map((item, i) => {
        const line = priced.lines[i];
        if (!line) throw new Error('unpriced line');
        return {
          order_id: id,
          product_id: item.productId,
          title: item.title,
          colour: null,
          size: item.size,
          quantity: item.quantity,
          unit_price_minor: line.unitPriceMinor,
          line_total_minor: line.totalMinor,
          image_url: null,
          regular_unit_price_minor: line.regularUnitPriceMinor,
          discount_minor: line.codeDiscountMinor,
          sale_id: line.sale?.id ?? null,
          sale_name: line.sale?.name ?? null,
        };
      }),
    )
    .execute();
  return { priced, paid, token: `token-${id}` };
}

/** An order from before sales: no regular price, no code. */
async function insertPlainOrder(db: Db, id: string, number: number) {
  const iso = NOW.toISOString();
  await insertOrderRow(db, {
    id,
    number,
    created_at: iso,
    currency: 'pkr',
    subtotal_minor: 300_000,
    total_minor: 300_000,
    customer_email: 'old@example.com',
    access_token: `token-${id}`,
  });
  await db
    .insertInto('order_lines')
    .values({
      order_id: id,
      product_id: 'd1',
      title: 'Silk Dupatta',
      colour: null,
      size: 'S',
      quantity: 2,
      unit_price_minor: 150_000,
      line_total_minor: 300_000,
      image_url: null,
      regular_unit_price_minor: null,
      sale_id: null,
      sale_name: null,
    })
    .execute();
}

/** An amount as a receipt shows it (the emails): PKR with its decimals, a no-break space after the code. */
const rs = (minor: number) => formatMoney(minor, 'pkr', { decimals: 'always' });

/**
 * An order with a sale on one line and a code over two: the shopper's page, the confirmation email, the
 * admin's detail (which the packing slip prints) and the CSV show what each line was charged and agree to
 * the minor unit; refunds give back what was charged, never more; the admin's list filters by code.
 */
describe('an order with a sale and a code, after the sale', () => {
  let store: TestStore;
  let clock = tickingClock();
  beforeEach(async () => {
    clock = tickingClock();
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
  });
  afterEach(async () => store.cleanup());

  const shop = () => store.caller({ clock });
  const admin = () => store.caller({ clock, admin: owner }).admin.orders;

  it('shows the same lines, discount and total on the page, the email, the admin detail and the CSV', async () => {
    const db = store.handle.db;
    const { priced, paid, token } = await insertDiscountedOrder(db, 'ord_eid', 7001);
    const [kurta, dupatta] = priced.lines;
    if (!kurta || !dupatta) throw new Error('lines missing');
    // The example is what it says: a sale on the kurta, the code shared by both lines, an uneven split.
    expect(kurta.sale?.name).toBe('Eid 20% off lawn');
    expect(dupatta.sale).toBeNull();
    expect(priced.codeDiscountMinor).toBe(153_301);
    expect(kurta.codeDiscountMinor).toBeGreaterThan(0);
    expect(dupatta.codeDiscountMinor).toBeGreaterThan(0);
    const linesCharged = kurta.totalMinor + dupatta.totalMinor;

    // The shopper's page.
    const page = await shop().orderPage.view({ id: 'ord_eid', token });
    expect(page.lines).toMatchObject([
      {
        title: 'Lawn Kurta',
        quantity: 3,
        regularUnitPriceMinor: 249_999,
        unitPriceMinor: kurta.unitPriceMinor,
        saleName: 'Eid 20% off lawn',
        discountMinor: kurta.codeDiscountMinor,
        lineTotalMinor: kurta.totalMinor,
      },
      {
        title: 'Silk Dupatta',
        unitPriceMinor: 150_001,
        discountMinor: dupatta.codeDiscountMinor,
        lineTotalMinor: dupatta.totalMinor,
      },
    ]);
    expect(page).toMatchObject({
      subtotalMinor: priced.subtotalMinor,
      discountMinor: 153_301,
      discountLabel: 'Discount (Eid10)',
      adjustmentsMinor: SHIPPING,
      totalMinor: paid,
    });
    // The sum check: the lines charged plus shipping is what was paid, and so is subtotal − discount + shipping.
    expect(page.lines.reduce((s, l) => s + l.lineTotalMinor, 0) + page.adjustmentsMinor).toBe(
      page.totalMinor,
    );
    expect(page.subtotalMinor - page.discountMinor + page.adjustmentsMinor).toBe(page.totalMinor);

    // The confirmation email's text.
    const email = await confirmationEmailOf(db, 'ord_eid', NOW);
    const text = email.text_body;
    expect(text).toContain(
      `- Lawn Kurta (size M): 3 × ${rs(kurta.unitPriceMinor)} (Eid 20% off lawn, regular ${rs(249_999)}) − ${rs(kurta.codeDiscountMinor)} code discount = ${rs(kurta.totalMinor)}`,
    );
    expect(text).toContain(
      `- Silk Dupatta (size S): 1 × ${rs(150_001)} − ${rs(dupatta.codeDiscountMinor)} code discount = ${rs(dupatta.totalMinor)}`,
    );
    expect(text).toContain(`Subtotal: ${rs(priced.subtotalMinor)}`);
    expect(text).toContain(`Discount (Eid10): −${rs(153_301)}`);
    expect(text).toContain(`Shipping and adjustments: ${rs(SHIPPING)}`);
    expect(text).toContain(`Total paid: ${rs(paid)}`);
    expect(email.html).toContain(`<s>${rs(249_999)}</s> ${rs(kurta.unitPriceMinor)}`);
    expect(email.html).toMatch(
      new RegExp(`<th scope="row"[^>]*>Discount \\(Eid10\\)</th><td[^>]*>−${rs(153_301)}</td>`),
    );

    // The admin's detail: the packing slip prints these very fields.
    const detail = await admin().byId({ id: 'ord_eid' });
    expect(detail).toMatchObject({
      subtotalMinor: page.subtotalMinor,
      discountMinor: page.discountMinor,
      discountLabel: page.discountLabel,
      discountCode: 'Eid10',
      salesMinor: priced.salesMinor,
      adjustmentsMinor: SHIPPING,
      paidMinor: paid,
    });
    expect(
      detail.lines.map((l) => [l.regularUnitPriceMinor, l.saleName, l.discountMinor, l.lineTotalMinor]),
    ).toEqual(
      page.lines.map((l) => [l.regularUnitPriceMinor, l.saleName, l.discountMinor, l.lineTotalMinor]),
    );
    expect(detail.lines.map((l) => l.refundableMinor)).toEqual([kurta.totalMinor, dupatta.totalMinor]);
    expect(detail.subtotalMinor - detail.discountMinor + detail.adjustmentsMinor).toBe(detail.paidMinor);

    // The CSV: the columns of before in their places, the new ones last.
    const csv: string[] = [];
    for await (const row of orderCsvRows(db, { from: '2026-01-01', to: '2027-01-01' }))
      csv.push(row.trimEnd());
    expect(csv[0]).toBe(
      'order_number,order_id,paid_at,status,fulfilment,customer_email,customer_name,ship_to_country,currency,product_id,title,size,quantity,unit_price,line_total,refunded_quantity,order_subtotal,order_total,order_refunded,colour,regular_unit_price,sale,discount_code,line_discount,payment_method,payment_step,returned_quantity,exchange_to,exchange_tracking,exchange_difference',
    );
    const cells = csv.slice(1).map((r) => r.split(','));
    const major = (minor: number) => minorToMajorString(minor, 'pkr');
    expect(cells.map((c) => c.slice(12, 26))).toEqual([
      [
        '3',
        major(kurta.unitPriceMinor),
        major(kurta.totalMinor),
        '0',
        major(priced.subtotalMinor),
        major(paid),
        '0.00',
        '',
        major(249_999),
        'Eid 20% off lawn',
        'Eid10',
        major(kurta.codeDiscountMinor),
        'card',
        'paid',
      ],
      [
        '1',
        major(150_001),
        major(dupatta.totalMinor),
        '0',
        major(priced.subtotalMinor),
        major(paid),
        '0.00',
        '',
        '',
        '',
        'Eid10',
        major(dupatta.codeDiscountMinor),
        'card',
        'paid',
      ],
    ]);
    // The CSV's sum check, in minor units: the lines charged add up to what was paid less shipping.
    const toMinor = (text: string) => Math.round(Number(text) * 100);
    expect(cells.reduce((s, c) => s + toMinor(c[14] ?? ''), 0)).toBe(linesCharged);
    expect(linesCharged + SHIPPING).toBe(paid);
  });

  it('shows an order from before sales exactly as before', async () => {
    const db = store.handle.db;
    await insertPlainOrder(db, 'ord_old', 7002);
    const page = await shop().orderPage.view({ id: 'ord_old', token: 'token-ord_old' });
    expect(page).toMatchObject({
      subtotalMinor: 300_000,
      discountMinor: 0,
      adjustmentsMinor: 0,
      totalMinor: 300_000,
    });
    const email = await confirmationEmailOf(db, 'ord_old', NOW);
    expect(email.text_body).toContain(
      `Items in order #7002\n- Silk Dupatta (size S): 2 × ${rs(150_000)} = ${rs(300_000)}\n\nSubtotal: ${rs(300_000)}\nTotal paid: ${rs(300_000)}\n`,
    );
    expect(email.html).not.toContain('<s>');
    expect(email.html).not.toContain('Discount');
    const csv: string[] = [];
    for await (const row of orderCsvRows(db, { from: '2026-01-01', to: '2027-01-01' }))
      csv.push(row.trimEnd());
    expect(csv[1]).toMatch(
      /,d1,Silk Dupatta,S,2,1500\.00,3000\.00,0,3000\.00,3000\.00,0\.00,,,,,0\.00,card,paid,0,,,$/,
    );
  });

  it('refunds one unit of the discounted line of 3 at its share, everything at exactly what was charged', async () => {
    const db = store.handle.db;
    const { priced, paid } = await insertDiscountedOrder(db, 'ord_eid', 7001);
    const detail = await admin().byId({ id: 'ord_eid' });
    const [kurtaLine, dupattaLine] = detail.lines;
    const [kurta, dupatta] = priced.lines;
    if (!kurtaLine || !dupattaLine || !kurta || !dupatta) throw new Error('lines missing');
    // Not a multiple of 3: the units' shares differ by at most one paisa and add up to the line's total.
    const shares = [0, 1, 2].map((n) =>
      refundableForUnits({ quantity: 3, lineTotalMinor: kurta.totalMinor, refundedQuantity: n }, 1),
    );
    expect(kurta.totalMinor % 3).not.toBe(0);
    expect(shares.reduce((s, x) => s + x, 0)).toBe(kurta.totalMinor);
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    // Less than the sale price of a unit: the code's share of it is not given back.
    expect(shares[0]).toBeLessThan(kurta.unitPriceMinor);

    const one = await admin().refund({ id: 'ord_eid', lines: [{ lineId: kurtaLine.id, quantity: 1 }] });
    expect(one).toMatchObject({ amountMinor: shares[0], status: 'succeeded' });
    const after = await admin().byId({ id: 'ord_eid' });
    expect(after.lines[0]?.refundableMinor).toBe(kurta.totalMinor - (shares[0] ?? 0));

    const rest = await admin().refund({
      id: 'ord_eid',
      lines: [
        { lineId: kurtaLine.id, quantity: 2 },
        { lineId: dupattaLine.id, quantity: 1 },
      ],
    });
    expect(rest.amountMinor).toBe((shares[1] ?? 0) + (shares[2] ?? 0) + dupatta.totalMinor);
    const order = await db
      .selectFrom('orders')
      .select(['refunded_minor', 'total_minor'])
      .where('id', '=', 'ord_eid')
      .executeTakeFirstOrThrow();
    // Every unit of every line: exactly what the lines were charged, the total less shipping.
    expect(order.refunded_minor).toBe(paid - SHIPPING);
    expect(order.refunded_minor).toBeLessThanOrEqual(order.total_minor ?? 0);

    // Above what is left (the shipping): refused, saying how much is left.
    await expect(admin().refund({ id: 'ord_eid', amountMinor: SHIPPING + 1 })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `Only ${formatMoney(SHIPPING, 'pkr')} is left to refund on order #7001.`,
    });
    await expect(
      admin().refund({ id: 'ord_eid', lines: [{ lineId: dupattaLine.id, quantity: 1 }] }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Silk Dupatta (S): fewer are left to refund than that.',
    });
  });

  it('two refunds of one unit of a line at once give back two different units, never one twice', async () => {
    const { priced } = await insertDiscountedOrder(store.handle.db, 'ord_eid', 7001);
    const kurta = priced.lines[0];
    const lineId = (await admin().byId({ id: 'ord_eid' })).lines[0]?.id;
    if (!kurta || lineId === undefined) throw new Error('line missing');
    // A charged total of 3x + 1: only the first unit's share has the extra paisa, so two refunds that both
    // took it for theirs would give back one paisa too many.
    const total = kurta.totalMinor - ((kurta.totalMinor - 1) % 3);
    await store.handle.db
      .updateTable('order_lines')
      .set({ line_total_minor: total })
      .where('id', '=', lineId)
      .execute();
    const unit = (n: number) =>
      refundableForUnits({ quantity: 3, lineTotalMinor: total, refundedQuantity: n }, 1);
    expect(unit(0)).toBe(unit(1) + 1);
    const both = await Promise.all([
      admin().refund({ id: 'ord_eid', lines: [{ lineId, quantity: 1 }] }),
      admin().refund({ id: 'ord_eid', lines: [{ lineId, quantity: 1 }] }),
    ]);
    expect(both.reduce((s, r) => s + r.amountMinor, 0)).toBe(unit(0) + unit(1));
    const last = await admin().refund({ id: 'ord_eid', lines: [{ lineId, quantity: 1 }] });
    expect(both.reduce((s, r) => s + r.amountMinor, 0) + last.amountMinor).toBe(total);
  });

  it('shares a discount only the order carries (one Stripe applied) over its lines for refunds', async () => {
    const db = store.handle.db;
    await insertPlainOrder(db, 'ord_promo', 7003);
    // Stripe took 10.01 off the 3,000.00 of lines, and 2.50 of shipping was paid on top.
    await db
      .updateTable('orders')
      .set({ discount_minor: 1001, discount_code: 'STRIPE5', total_minor: 300_000 - 1001 + 250 })
      .where('id', '=', 'ord_promo')
      .execute();
    const page = await shop().orderPage.view({ id: 'ord_promo', token: 'token-ord_promo' });
    expect(page).toMatchObject({
      subtotalMinor: 300_000,
      discountMinor: 1001,
      discountLabel: 'Discount (STRIPE5)',
      adjustmentsMinor: 250,
    });
    const detail = await admin().byId({ id: 'ord_promo' });
    const line = detail.lines[0];
    if (!line) throw new Error('line missing');
    expect(line.chargedTotalMinor).toBe(300_000 - 1001);
    const one = await admin().refund({ id: 'ord_promo', lines: [{ lineId: line.id, quantity: 1 }] });
    const two = await admin().refund({ id: 'ord_promo', lines: [{ lineId: line.id, quantity: 1 }] });
    // 298,999 over 2 units: 149,500 then 149,499, never the 150,000 a unit was priced at.
    expect([one.amountMinor, two.amountMinor]).toEqual([149_500, 149_499]);
  });

  it('filters the admin list by code, whatever its case, and shows the code on the row', async () => {
    const db = store.handle.db;
    await insertDiscountedOrder(db, 'ord_eid', 7001);
    await insertPlainOrder(db, 'ord_old', 7002);
    const all = await admin().list({});
    expect(all.items.map((o) => [o.number, o.discountCode])).toEqual(
      expect.arrayContaining([
        [7001, 'Eid10'],
        [7002, null],
      ]),
    );
    for (const code of ['EID10', 'eid10', ' Eid10 ']) {
      const found = await admin().list({ code });
      expect(found.items.map((o) => o.number)).toEqual([7001]);
    }
    expect((await admin().list({ code: 'SUMMER' })).items).toEqual([]);
    expect((await admin().list({ code: '' })).items).toHaveLength(2);
  });
});
