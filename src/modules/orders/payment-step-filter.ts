import { type ExpressionBuilder, type ExpressionWrapper, type SqlBool, sql } from 'kysely';
import type { Database, DbOrTx } from '../../db/database.js';
import type { PaymentStep } from '../../shared/payment-methods.js';

type Eb = ExpressionBuilder<Database, 'orders'>;
type Condition = ExpressionWrapper<Database, 'orders', SqlBool>;

/**
 * The orders whose paymentStep (shared/payment-methods.ts) is `step`, as SQL for the admin's list: the same
 * rules read backwards, method by method. payment-step-filter.test.ts checks every step against paymentStep
 * over every method, status and fulfilment, so the two cannot drift apart.
 */
export function stepCondition(eb: Eb, step: PaymentStep): Condition {
  const cod = eb('payment_method', '=', 'cash_on_delivery');
  const notCod = eb('payment_method', '!=', 'cash_on_delivery');
  const open = eb('fulfilment', '!=', 'cancelled');
  switch (step) {
    case 'returned':
      return eb.and([cod, eb('status', '=', 'payment_failed')]);
    case 'cancelled':
      return eb.and([
        eb('fulfilment', '=', 'cancelled'),
        eb.or([notCod, eb('status', '!=', 'payment_failed')]),
      ]);
    case 'awaiting_confirmation':
      return eb.and([cod, open, eb('status', '=', 'pending')]);
    case 'confirmed':
      return eb.and([cod, eb('status', '=', 'processing'), eb('fulfilment', '=', 'unfulfilled')]);
    case 'collected':
      return eb.and([cod, open, eb('status', '=', 'paid')]);
    case 'awaiting_transfer':
      return eb.and([eb('payment_method', '=', 'bank_transfer'), open, eb('status', '=', 'pending')]);
    case 'awaiting_payment':
      return eb.and([eb('payment_method', '=', 'card'), open, eb('status', '=', 'pending')]);
    case 'payment_processing':
      return eb.and([notCod, open, eb('status', '=', 'processing')]);
    case 'payment_failed':
      return eb.and([notCod, open, eb('status', '=', 'payment_failed')]);
    case 'expired':
      return eb.and([open, eb('status', '=', 'expired')]);
    case 'paid':
      return eb.and([notCod, eb('status', '=', 'paid'), eb('fulfilment', '=', 'unfulfilled')]);
    case 'shipped':
    case 'delivered':
      // A card or transfer order once paid; a cash-on-delivery one while its cash is still due.
      return eb.and([
        eb('fulfilment', '=', step),
        eb.or([eb.and([notCod, eb('status', '=', 'paid')]), eb.and([cod, eb('status', '=', 'processing')])]),
      ]);
  }
}

export type CodSummary = {
  /** Returned ÷ (returned + collected) over cash-on-delivery orders; null before any came back or was paid. */
  returnToOriginRate: number | null;
  returned: number;
  collected: number;
  /** Confirmed cash-on-delivery orders not collected yet, per currency: never summed across currencies. */
  cashAwaiting: Array<{ currency: string; amountMinor: number; orders: number }>;
};

/** The orders list's cash-on-delivery figures (decision 0038), counted and summed by the database. */
export async function codSummary(db: DbOrTx): Promise<CodSummary> {
  const counts = await db
    .selectFrom('orders')
    .select([
      sql<number>`coalesce(sum(CASE WHEN status = 'payment_failed' THEN 1 ELSE 0 END), 0)`.as('returned'),
      sql<number>`coalesce(sum(CASE WHEN status = 'paid' THEN 1 ELSE 0 END), 0)`.as('collected'),
    ])
    .where('payment_method', '=', 'cash_on_delivery')
    .where('status', 'in', ['paid', 'payment_failed'])
    .executeTakeFirst();
  const awaiting = await db
    .selectFrom('orders')
    .select([
      'currency',
      sql<number>`sum(coalesce(total_minor, subtotal_minor))`.as('amount'),
      sql<number>`count(*)`.as('orders'),
    ])
    .where('payment_method', '=', 'cash_on_delivery')
    .where('status', '=', 'processing')
    .where('fulfilment', '!=', 'cancelled')
    .groupBy('currency')
    .orderBy('currency')
    .execute();
  // PostgreSQL answers sums and counts of bigints as text.
  const returned = Number(counts?.returned ?? 0);
  const collected = Number(counts?.collected ?? 0);
  return {
    returnToOriginRate: returned + collected === 0 ? null : returned / (returned + collected),
    returned,
    collected,
    cashAwaiting: awaiting.map((r) => ({
      currency: r.currency,
      amountMinor: Number(r.amount),
      orders: Number(r.orders),
    })),
  };
}
