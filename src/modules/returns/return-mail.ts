import type { DbOrTx } from '../../db/database.js';
import { variantLabel } from '../../shared/colours.js';
import type { ReturnStep } from '../../shared/returns.js';
import { enqueueEmail } from '../email/outbox.repository.js';
import { orderPagePath } from '../orders/order-access.js';
import { readStoreContacts } from '../settings/settings.repository.js';
import { colourNameOf } from './return-colours.js';
import { loadReturnSettings } from './return-settings.js';
import { returnStepEmail } from './return-step-email.js';

export type ReturnMailDeps = { publicUrl: string; now: Date };

/**
 * Queues the shopper's email of a return's step (decision 0039) in the caller's transaction, as
 * queuePaymentStepEmail does: it exists if and only if the step committed. No address or no order link:
 * no email (null). Every step of both sides goes through here, the owner's too.
 */
export async function queueReturnStepEmail(
  trx: DbOrTx,
  deps: ReturnMailDeps,
  returnId: string,
  step: ReturnStep,
): Promise<string | null> {
  const ret = await trx.selectFrom('returns').selectAll().where('id', '=', returnId).executeTakeFirst();
  if (!ret) return null;
  const order = await trx
    .selectFrom('orders')
    .select(['id', 'number', 'currency', 'customer_email', 'customer_name', 'access_token', 'payment_method'])
    .where('id', '=', ret.order_id)
    .executeTakeFirst();
  if (!order?.customer_email || !order.access_token) return null;
  const lines = await trx
    .selectFrom('return_lines as rl')
    .innerJoin('order_lines as ol', 'ol.id', 'rl.order_line_id')
    .select([
      'ol.product_id',
      'ol.title',
      'ol.colour',
      'ol.size',
      'rl.quantity',
      'rl.exchange_colour',
      'rl.exchange_size',
    ])
    .where('rl.return_id', '=', returnId)
    .orderBy('rl.order_line_id')
    .execute();
  const described: string[] = [];
  for (const l of lines) {
    const bought = variantLabel(l.colour, l.size);
    let line = `${l.title}${bought ? ` (${bought})` : ''} × ${l.quantity}`;
    if (l.exchange_size !== null) {
      const colour = l.exchange_colour ? await colourNameOf(trx, l.product_id, l.exchange_colour) : null;
      line += ` → ${variantLabel(colour, l.exchange_size)}`;
    }
    described.push(line);
  }
  const settings = await loadReturnSettings(trx);
  const store = await readStoreContacts(trx);
  const rendered = returnStepEmail(
    {
      store: { name: store.name, publicUrl: deps.publicUrl },
      order: {
        number: order.number,
        currency: order.currency,
        customerName: order.customer_name,
        pageUrl: `${deps.publicUrl}${orderPagePath(order.id, order.access_token)}`,
      },
      ret: {
        reason: ret.reason,
        resolution: ret.resolution,
        lines: described,
        declineReason: ret.decline_reason,
        instructions: settings.instructions,
        postagePaidBy: settings.postagePaidBy,
        exchangeCarrier: ret.exchange_carrier,
        exchangeTracking: ret.exchange_tracking,
        refundedMinor: ret.refunded_minor,
        difference:
          ret.difference_minor === 0
            ? null
            : {
                amountMinor: ret.difference_minor,
                status: ret.difference_status,
                payOnline: order.payment_method === 'card',
                cashOnDelivery: order.payment_method === 'cash_on_delivery',
              },
      },
    },
    step,
  );
  return enqueueEmail(
    trx,
    { kind: 'return_step', orderId: order.id, to: order.customer_email, ...rendered },
    deps.now,
  );
}
