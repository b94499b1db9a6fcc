import type { DbOrTx } from '../../db/database.js';
import type { PaymentMethodSettings } from '../../shared/payment-methods.js';
import { enqueueEmail } from '../email/outbox.repository.js';
import { type PaymentStepMail, paymentStepEmail } from '../email/payment-step-emails.js';
import { readPaymentMethods } from '../settings/payment-method-settings.js';
import { readStoreContacts } from '../settings/settings.repository.js';
import { orderPagePath } from './order-access.js';

/** The owner's choice (Settings → Payment methods) that sends each step's email. */
const CHOICE: Record<PaymentStepMail['step'], keyof PaymentMethodSettings['emails']> = {
  collected: 'collected',
  returned: 'returned',
  transfer_received: 'transferReceived',
};

/**
 * Queues the shopper's email of an owner's step (decision 0038) in the caller's transaction, as
 * queueOrderEmail does: it exists if and only if the step committed. Not when the owner turned that step's
 * email off; no address or no order link: no email.
 */
export async function queuePaymentStepEmail(
  trx: DbOrTx,
  args: { orderId: string; mail: PaymentStepMail; publicUrl: string; now: Date },
): Promise<string | null> {
  if (!(await readPaymentMethods(trx)).emails[CHOICE[args.mail.step]]) return null;
  const order = await trx
    .selectFrom('orders')
    .select(['id', 'number', 'currency', 'customer_email', 'customer_name', 'access_token'])
    .where('id', '=', args.orderId)
    .executeTakeFirst();
  if (!order?.customer_email || !order.access_token) return null;
  const store = await readStoreContacts(trx);
  const rendered = paymentStepEmail(
    {
      store: { name: store.name, publicUrl: args.publicUrl },
      order: {
        number: order.number,
        currency: order.currency,
        customerName: order.customer_name,
        pageUrl: `${args.publicUrl}${orderPagePath(order.id, order.access_token)}`,
      },
    },
    args.mail,
  );
  return enqueueEmail(
    trx,
    { kind: 'order_payment_step', orderId: order.id, to: order.customer_email, ...rendered },
    args.now,
  );
}
