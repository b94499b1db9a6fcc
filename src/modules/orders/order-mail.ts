import type { DbOrTx } from '../../db/database.js';
import {
  type OrderEmailData,
  orderConfirmationEmail,
  orderRefundEmail,
  orderShippedEmail,
} from '../email/order-emails.js';
import { enqueueEmail } from '../email/outbox.repository.js';
import { readStoreContacts } from '../settings/settings.repository.js';
import { orderPagePath } from './order-access.js';
import { loadOrderRecord } from './order-record.js';

type OrderMail =
  | { kind: 'order_confirmation'; orderId: string; publicUrl: string; now: Date }
  | { kind: 'order_shipped'; orderId: string; publicUrl: string; now: Date }
  | { kind: 'order_refund'; orderId: string; refundId: string; publicUrl: string; now: Date };

/**
 * Renders an order's email and puts it in the outbox, in the caller's transaction: the email exists if and
 * only if the change it tells of committed. Orders without an address to write to (a Stripe session that
 * collected none) get no email; the timeline shows that none was queued.
 */
export async function queueOrderEmail(trx: DbOrTx, mail: OrderMail): Promise<string | null> {
  const record = await loadOrderRecord(trx, mail.orderId);
  const to = record?.order.customer_email;
  const token = record?.order.access_token;
  if (!record || !to || !token) return null;
  const { order, lines } = record;
  const store = await readStoreContacts(trx);
  const data: OrderEmailData = {
    store: { ...store, publicUrl: mail.publicUrl },
    order: {
      number: order.number,
      currency: order.currency,
      lines,
      subtotalMinor: record.charges.subtotalMinor,
      discount: { label: record.charges.discountLabel, amountMinor: record.charges.discountMinor },
      totalMinor: record.paidMinor,
      customerName: order.customer_name,
      shippingAddress: record.shippingAddress,
      pageUrl: `${mail.publicUrl}${orderPagePath(order.id, token)}`,
    },
  };
  let rendered: { subject: string; html: string; text: string };
  if (mail.kind === 'order_confirmation') rendered = orderConfirmationEmail(data);
  else if (mail.kind === 'order_shipped') {
    if (!record.shipment) return null;
    rendered = orderShippedEmail({ ...data, shipment: record.shipment });
  } else {
    const { refundId } = mail;
    const refund = record.refunds.find((r) => r.id === refundId);
    if (!refund) return null;
    const given = refundLines(refund.lines);
    rendered = orderRefundEmail({
      ...data,
      refund: {
        amountMinor: refund.amount_minor,
        totalRefundedMinor: record.refundedMinor,
        reason: refund.reason,
        paidVia: refund.method === 'manual' ? refund.paid_via : null,
        lines: given.flatMap((g) => {
          const line = lines.find((l) => l.id === g.lineId);
          return line
            ? [{ title: line.title, colour: line.colour, size: line.size, quantity: g.quantity }]
            : [];
        }),
      },
    });
  }
  return enqueueEmail(trx, { kind: mail.kind, orderId: order.id, to, ...rendered }, mail.now);
}

/** A refund's lines column: [{ lineId, quantity }], read defensively. */
export function refundLines(text: string): Array<{ lineId: number; quantity: number }> {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.flatMap((v) =>
      v && typeof v === 'object' && Number.isInteger(v.lineId) && Number.isInteger(v.quantity)
        ? [{ lineId: v.lineId as number, quantity: v.quantity as number }]
        : [],
    );
  } catch {
    return [];
  }
}
