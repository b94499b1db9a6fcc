import type { DbOrTx } from '../../db/database.js';
import {
  bankPlacedEmail,
  codConfirmedEmail,
  codPlacedEmail,
  type OfflineEmailData,
  offlineExpiredEmail,
} from '../email/offline-payment-emails.js';
import { enqueueEmail } from '../email/outbox.repository.js';
import { readPaymentMethods } from '../settings/payment-method-settings.js';
import { readStoreContacts } from '../settings/settings.repository.js';
import { pendingDeadline } from './offline-deadline.js';
import { orderPagePath } from './order-access.js';
import { loadOrderRecord } from './order-record.js';

type OfflineMail =
  /** The confirmation link's token exists only while the order is placed: it is never stored. */
  | { kind: 'cod_placed'; confirmToken: string }
  | { kind: 'bank_placed' }
  | { kind: 'cod_confirmed' }
  | { kind: 'offline_expired' };

/** The reference a transfer quotes, the same on the order page and in the email. */
export function paymentReferenceOf(orderNumber: number): string {
  return `Order ${orderNumber}`;
}

/** The link in the cash-on-delivery email that confirms the order. */
export function confirmLink(publicUrl: string, orderId: string, token: string): string {
  return `${publicUrl}/order/${encodeURIComponent(orderId)}/confirm?token=${encodeURIComponent(token)}`;
}

/**
 * Renders an offline order's email and queues it in the caller's transaction, as queueOrderEmail does.
 * The outbox's kinds are fixed by a CHECK constraint; these go as `order_confirmation` (the placed and
 * confirmed ones are that, and the expiry answers it) until a migration gives them kinds of their own.
 */
export async function queueOfflineOrderEmail(
  trx: DbOrTx,
  mail: OfflineMail & { orderId: string; publicUrl: string; now: Date },
): Promise<string | null> {
  const record = await loadOrderRecord(trx, mail.orderId);
  const to = record?.order.customer_email;
  const token = record?.order.access_token;
  if (!record || !to || !token) return null;
  const { order } = record;
  const data: OfflineEmailData = {
    store: { ...(await readStoreContacts(trx)), publicUrl: mail.publicUrl },
    order: {
      number: order.number,
      currency: order.currency,
      lines: record.lines,
      totalMinor: record.paidMinor,
      feeMinor: order.method_fee_minor,
      customerName: order.customer_name,
      pageUrl: `${mail.publicUrl}${orderPagePath(order.id, token)}`,
    },
  };
  let rendered: { subject: string; html: string; text: string };
  if (mail.kind === 'cod_placed') {
    if (!order.confirm_by) return null;
    rendered = codPlacedEmail(data, {
      url: confirmLink(mail.publicUrl, order.id, mail.confirmToken),
      by: new Date(order.confirm_by),
    });
  } else if (mail.kind === 'bank_placed') {
    const settings = await readPaymentMethods(trx);
    // The hold runs from the placing, as the sweep reckons it (offline-expiry.ts).
    const holdUntil = pendingDeadline(settings, order);
    rendered = bankPlacedEmail(data, {
      accountDetails: settings.bankTransfer.accountDetails,
      reference: paymentReferenceOf(order.number),
      holdUntil,
    });
  } else if (mail.kind === 'cod_confirmed') rendered = codConfirmedEmail(data);
  else
    rendered = offlineExpiredEmail(
      data,
      order.payment_method === 'cash_on_delivery' ? 'not_confirmed' : 'not_paid',
    );
  return enqueueEmail(trx, { kind: 'order_confirmation', orderId: order.id, to, ...rendered }, mail.now);
}
