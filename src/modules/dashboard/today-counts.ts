import { sql } from 'kysely';
import type { DbOrTx, EmailKind } from '../../db/database.js';
import type { DashboardToday } from '../../shared/dashboard.js';
import { stepCondition } from '../orders/payment-step-filter.js';
import { num } from './sql-number.js';

/**
 * What needs doing now (no money in it: staff see it too). Each count is the list it links to, read with
 * the same rules: the payment steps through stepCondition (payment-step-filter.ts, held to paymentStep by
 * its test), low stock as admin.products.lowStock counts it (on hand less held, at or under the threshold).
 */
export async function todayCounts(
  db: DbOrTx,
  lowStockThreshold: number,
  /** Email kinds this admin may not list (emailKindsHiddenFrom): not counted either. */
  hiddenEmailKinds: readonly EmailKind[] = [],
): Promise<DashboardToday> {
  // Only orders one of the three can count: pending or processing ones, and paid ones not yet shipped.
  // Paid and shipped or delivered is every order of the shop's past, which the counts never need. Each part
  // is its own query so that both engines search the index on (status, fulfilment) for it: PostgreSQL read
  // the whole index for the two parts OR-ed together (100,000 orders: 10 ms, and 30 with a parallel worker).
  const openOrders = (part: 'open' | 'paid') =>
    db
      .selectFrom('orders')
      .select((eb) => [
        sql<number>`coalesce(sum(CASE WHEN ${stepCondition(eb, 'awaiting_confirmation')} THEN 1 ELSE 0 END), 0)`.as(
          'to_confirm',
        ),
        // Paid card or transfer orders, and confirmed cash-on-delivery ones: both wait for a parcel.
        sql<number>`coalesce(sum(CASE WHEN ${eb.or([stepCondition(eb, 'paid'), stepCondition(eb, 'confirmed')])} THEN 1 ELSE 0 END), 0)`.as(
          'to_ship',
        ),
        // Transfers awaited, and cash on delivery on its way or delivered but not yet recorded collected.
        sql<number>`coalesce(sum(CASE WHEN ${eb.or([
          stepCondition(eb, 'awaiting_transfer'),
          eb.and([
            eb('payment_method', '=', 'cash_on_delivery'),
            eb('status', '=', 'processing'),
            eb('fulfilment', 'in', ['shipped', 'delivered']),
          ]),
        ])} THEN 1 ELSE 0 END), 0)`.as('payments_waiting'),
      ])
      .where((eb) =>
        part === 'open'
          ? eb.and([
              eb('status', 'in', ['pending', 'processing']),
              eb('fulfilment', 'in', ['unfulfilled', 'shipped', 'delivered']),
            ])
          : eb.and([eb('status', '=', 'paid'), eb('fulfilment', '=', 'unfulfilled')]),
      )
      .executeTakeFirst();
  const [open, paid, returns, emails, lowStock] = await Promise.all([
    openOrders('open'),
    openOrders('paid'),
    db
      .selectFrom('returns')
      .select(sql<number>`count(*)`.as('n'))
      .where('status', 'in', ['requested', 'received'])
      .executeTakeFirst(),
    db
      .selectFrom('email_outbox')
      .select(sql<number>`count(*)`.as('n'))
      .where('status', '=', 'failed')
      .$if(hiddenEmailKinds.length > 0, (q) => q.where('kind', 'not in', [...hiddenEmailKinds]))
      .executeTakeFirst(),
    db
      .selectFrom('size_stock as s')
      .innerJoin('products as p', 'p.id', 's.product_id')
      .select(sql<number>`count(*)`.as('n'))
      .where((eb) => eb(eb('s.on_hand', '-', eb.ref('s.reserved')), '<=', lowStockThreshold))
      .executeTakeFirst(),
  ]);
  return {
    ordersToConfirm: num(open?.to_confirm) + num(paid?.to_confirm),
    ordersToShip: num(open?.to_ship) + num(paid?.to_ship),
    returnsWaiting: num(returns?.n),
    emailsFailed: num(emails?.n),
    lowStockSizes: num(lowStock?.n),
    lowStockThreshold,
    paymentsWaiting: num(open?.payments_waiting) + num(paid?.payments_waiting),
  };
}
