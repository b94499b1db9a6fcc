import type { DbOrTx, Fulfilment, OrderStatus } from '../../db/database.js';
import type { ReturnSettings } from '../../shared/returns.js';
import { orderWindow } from './return-eligibility.js';
import { loadReturnSettings } from './return-settings.js';

type OrderState = {
  status: OrderStatus;
  fulfilment: Fulfilment;
  shipped_at: string | null;
  delivered_at: string | null;
};

/**
 * Whether an order's fit finder measurements have served their purpose (decision 0040): they only choose the
 * size offered for a too-small or too-big exchange, so they go once the order can no longer be returned
 * online: it expired unpaid or was cancelled, the shop takes no returns online, or its return window ended.
 * A paid order not yet sent, or one still waiting for its payment, keeps them.
 */
export function fitSpent(order: OrderState, settings: ReturnSettings, now: Date): boolean {
  if (order.status === 'expired' || order.fulfilment === 'cancelled') return true;
  if (settings.windowDays === 0) return true;
  if (order.status !== 'paid') return false;
  const window = orderWindow(order, settings, now);
  return window.windowEndsAt !== null && !window.eligible;
}

/**
 * Erases the measurements of every order whose measurements are spent (fitSpent): the housekeeping's step.
 * Only orders that still hold some are read (a partial index finds them), so a round stays small: the orders
 * inside their return window. Returns how many lines lost theirs.
 */
export async function eraseSpentFits(db: DbOrTx, now: Date): Promise<number> {
  const settings = await loadReturnSettings(db);
  const orders = await db
    .selectFrom('orders as o')
    .select(['o.id', 'o.status', 'o.fulfilment', 'o.shipped_at', 'o.delivered_at'])
    // From the lines that still hold measurements (their partial index), not from every order.
    .where('o.id', 'in', (eb) =>
      eb.selectFrom('order_lines as ol').select('ol.order_id').where('ol.fit_cm', 'is not', null),
    )
    .execute();
  const spent = orders.filter((o) => fitSpent(o, settings, now)).map((o) => o.id);
  if (spent.length === 0) return 0;
  const result = await db
    .updateTable('order_lines')
    .set({ fit_cm: null })
    .where('order_id', 'in', spent)
    .where('fit_cm', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
