import type { DbOrTx } from '../../db/database.js';
import { formatMoneyExact } from '../../shared/money.js';
import { orderStageLabel } from '../../shared/orders.js';
import { PAYMENT_METHOD_LABEL, paymentStep, paymentStepLabel } from '../../shared/payment-methods.js';
import { emailsOfOrder, type OutboxEntry } from '../email/outbox.repository.js';
import { readPaymentMethods } from '../settings/payment-method-settings.js';
import { withLineFits } from './line-fits.js';
import { orderPagePath } from './order-access.js';
import { type OrderEvent, orderEvents } from './order-events.repository.js';
import { refundLines } from './order-mail.js';
import { loadOrderRecord } from './order-record.js';
import { phoneRefusedForReturns } from './phone-refusal.js';

export type TimelineEntry = { at: string; kind: string; label: string; actor: string; detail: string | null };

const EMAIL_NAME: Record<string, string> = {
  order_confirmation: 'order confirmation',
  order_shipped: 'shipping email',
  order_refund: 'refund email',
  order_payment_step: 'payment step email',
  return_step: 'return email',
};

function money(detail: Record<string, unknown>): string {
  const amount = detail.amountMinor;
  const currency = detail.currency;
  return typeof amount === 'number' && typeof currency === 'string' ? formatMoneyExact(amount, currency) : '';
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function eventEntry(e: OrderEvent): TimelineEntry {
  const base = { at: e.at, kind: e.kind, actor: e.actor };
  const d = e.detail;
  switch (e.kind) {
    case 'created':
      return {
        ...base,
        label: 'Order created',
        detail:
          d.paymentMethod === 'cash_on_delivery' || d.paymentMethod === 'bank_transfer'
            ? PAYMENT_METHOD_LABEL[d.paymentMethod]
            : d.paymentMode === 'demo'
              ? 'Demo checkout'
              : 'Stripe Checkout',
      };
    case 'paid':
      return { ...base, label: 'Paid', detail: money(d) || null };
    case 'confirmed':
      return {
        ...base,
        label: 'Cash on delivery confirmed',
        detail: d.by === 'admin' ? 'By an admin' : null,
      };
    case 'payment_failed':
      return { ...base, label: 'Payment failed', detail: null };
    case 'expired':
      return { ...base, label: 'Checkout expired unpaid', detail: null };
    case 'shipped':
      return {
        ...base,
        label: 'Shipped',
        detail: [text(d.carrier), text(d.trackingNumber)].filter(Boolean).join(' · ') || null,
      };
    case 'delivered':
      return { ...base, label: 'Delivered', detail: null };
    case 'cancelled':
      return { ...base, label: 'Cancelled', detail: text(d.reason) };
    case 'refund_requested':
      return {
        ...base,
        label: 'Refund requested',
        detail: [money(d), text(d.reason)].filter(Boolean).join(' · '),
      };
    case 'refund_succeeded':
      return d.manual === true
        ? {
            ...base,
            label: 'Refunded by hand',
            detail:
              [money(d), text(d.paidVia), text(d.reason), text(d.note)].filter(Boolean).join(' · ') || null,
          }
        : { ...base, label: 'Refunded', detail: money(d) || null };
    case 'cash_collected': {
      const diff = typeof d.differenceMinor === 'number' ? d.differenceMinor : 0;
      const currency = typeof d.currency === 'string' ? d.currency : '';
      const off =
        diff === 0 || !currency
          ? null
          : `${formatMoneyExact(Math.abs(diff), currency)} ${diff < 0 ? 'short of' : 'over'} the total`;
      return {
        ...base,
        label: 'Delivered, cash collected',
        detail: [money(d), off].filter(Boolean).join(' · ') || null,
      };
    }
    case 'returned_to_origin':
      return {
        ...base,
        label: 'Returned to origin',
        detail:
          [text(d.reason), d.restocked === true ? 'stock put back' : 'stock not put back']
            .filter(Boolean)
            .join(' · ') || null,
      };
    case 'transfer_received':
      return {
        ...base,
        label: 'Transfer received',
        detail:
          [
            money(d),
            text(d.reference) && `reference ${text(d.reference)}`,
            text(d.receivedOn) && `on ${text(d.receivedOn)}`,
          ]
            .filter(Boolean)
            .join(' · ') || null,
      };
    case 'oversold':
      return {
        ...base,
        label: 'Paid for more than was in stock',
        detail: Array.isArray(d.short) ? d.short.join(', ') : null,
      };
    case 'refund_failed':
      return {
        ...base,
        label: 'Refund failed',
        detail: [money(d), text(d.failure)].filter(Boolean).join(' · '),
      };
    case 'return_requested':
      return {
        ...base,
        label: d.resolution === 'exchange' ? 'Exchange requested' : 'Return requested',
        detail: [text(d.reason), text(d.summary)].filter(Boolean).join(' · ') || null,
      };
    case 'return_approved':
      return { ...base, label: 'Return approved', detail: null };
    case 'return_declined':
      return { ...base, label: 'Return declined', detail: text(d.reason) };
    case 'return_received':
      // Also where a return's refund was refused and the return went back to waiting for its refund.
      return {
        ...base,
        label: d.refundRefused ? 'Refund refused: the return is received again' : 'Return received',
        detail: text(d.condition),
      };
    case 'return_closed':
      return {
        ...base,
        label: d.resolution === 'exchange' ? 'Exchange shipped' : 'Return refunded',
        detail: [money(d), text(d.carrier), text(d.trackingNumber)].filter(Boolean).join(' · ') || null,
      };
    case 'return_cancelled':
      return { ...base, label: 'Return cancelled', detail: null };
    case 'return_difference_paid':
      return {
        ...base,
        label: 'Exchange price difference paid',
        detail: [money(d), text(d.paidVia), text(d.note)].filter(Boolean).join(' · ') || null,
      };
    case 'return_difference_paid_again':
      return {
        ...base,
        label: 'Exchange price difference paid a second time: refund it',
        detail: [money(d), text(d.paymentIntentId)].filter(Boolean).join(' · ') || null,
      };
    case 'return_difference_to_refund':
      return {
        ...base,
        label: 'Exchange ended unshipped: its paid price difference is to refund',
        detail: [money(d), text(d.paidVia)].filter(Boolean).join(' · ') || null,
      };
    case 'return_difference_refunded':
      return { ...base, label: 'Exchange price difference refunded', detail: money(d) };
  }
}

function emailEntries(email: OutboxEntry): TimelineEntry[] {
  const name = EMAIL_NAME[email.kind] ?? email.kind;
  const entries: TimelineEntry[] = [
    {
      at: email.createdAt,
      kind: 'email_queued',
      label: `Queued the ${name}`,
      actor: 'store',
      detail: `To ${email.to}`,
    },
  ];
  if (email.sentAt)
    entries.push({
      at: email.sentAt,
      kind: 'email_sent',
      label: `Sent the ${name}`,
      actor: 'store',
      detail: `To ${email.to}`,
    });
  if (email.status === 'failed')
    entries.push({
      at: email.nextAttemptAt ?? email.createdAt,
      kind: 'email_failed',
      label: `Could not send the ${name}`,
      actor: 'store',
      detail: email.lastError,
    });
  return entries;
}

/** One order as the admin's detail shows it: money, goods, refunds, emails and the timeline of all of it. */
export async function adminOrderDetail(db: DbOrTx, id: string, publicUrl: string) {
  const record = await loadOrderRecord(db, id);
  if (!record) return null;
  const { order } = record;
  const [events, emails, stripeEvents, returns] = await Promise.all([
    orderEvents(db, id),
    emailsOfOrder(db, id),
    db
      .selectFrom('stripe_events')
      .select(['id', 'type', 'outcome', 'received_at'])
      .where('order_id', '=', id)
      .orderBy('received_at')
      .execute(),
    db
      .selectFrom('returns')
      .select(['id', 'status', 'resolution', 'created_at'])
      .where('order_id', '=', id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  const timeline = [...events.map(eventEntry), ...emails.flatMap(emailEntries)].sort((a, b) =>
    a.at < b.at ? -1 : a.at > b.at ? 1 : 0,
  );
  const paid = order.status === 'paid';
  const step = paymentStep(order.payment_method, order.status, order.fulfilment);
  const cod = order.payment_method === 'cash_on_delivery';
  // Confirmed, at the shop or on its way: the cash is still due (the steps payment-steps.service.ts takes).
  const codDue =
    cod && order.status === 'processing' && ['unfulfilled', 'shipped'].includes(order.fulfilment);
  return {
    id: order.id,
    number: order.number,
    status: order.status,
    fulfilment: order.fulfilment,
    stage: orderStageLabel(order.status, order.fulfilment),
    paymentMode: order.payment_mode,
    /** How the shopper pays and where the order is for that method (decision 0038). */
    paymentMethod: order.payment_method,
    step,
    stepLabel: paymentStepLabel(order.payment_method, order.status, order.fulfilment),
    /** The cash-on-delivery fee, part of the total: subtotal − discount + fee + adjustments = total. */
    methodFeeMinor: order.method_fee_minor,
    phone: order.phone,
    /** Cash on delivery is refused to this phone for its returns to origin until the owner lifts it. */
    phoneRefused:
      order.payment_method === 'cash_on_delivery' && order.phone !== null
        ? await phoneRefusedForReturns(db, await readPaymentMethods(db), order.phone)
        : false,
    confirmBy: order.confirm_by,
    confirmedAt: order.confirmed_at,
    confirmedBy: order.confirmed_by,
    collectedMinor: order.collected_minor,
    collectedAt: order.collected_at,
    transferReference: order.transfer_reference,
    transferReceivedOn: order.transfer_received_on,
    returnedReason: order.returned_reason,
    returnedRestocked: order.returned_restocked === null ? null : order.returned_restocked === 1,
    returnedAt: order.returned_at,
    currency: order.currency,
    /** The lines at their (sale) prices, before the code: subtotal − discount + adjustments = paid. */
    subtotalMinor: record.charges.subtotalMinor,
    discountMinor: record.charges.discountMinor,
    discountLabel: record.charges.discountLabel,
    discountCode: order.discount_code,
    /** What sales took off the lines, for the owner's eye. */
    salesMinor: order.sales_minor,
    adjustmentsMinor: record.charges.adjustmentsMinor - order.method_fee_minor,
    totalMinor: order.total_minor,
    paidMinor: record.paidMinor,
    refundedMinor: record.refundedMinor,
    refundPendingMinor: record.refundPendingMinor,
    refundableMinor: record.refundableMinor,
    customerEmail: order.customer_email,
    customerName: order.customer_name,
    shippingAddress: record.shippingAddress,
    billingAddress: parseJson(order.billing_address),
    stripeSessionId: order.stripe_session_id,
    createdAt: order.created_at,
    paidAt: order.paid_at,
    shipment: record.shipment,
    deliveredAt: order.delivered_at,
    cancelledAt: order.cancelled_at,
    lines: await withLineFits(db, record.lines),
    refunds: record.refunds.map((r) => ({
      id: r.id,
      amountMinor: r.amount_minor,
      currency: r.currency,
      status: r.status,
      provider: r.provider,
      /** 'manual': paid back by hand (cash, a transfer), recorded as done (decision 0038). */
      method: r.method,
      paidVia: r.paid_via,
      note: r.note,
      reason: r.reason,
      failure: r.failure,
      adminEmail: r.admin_email,
      lines: refundLines(r.lines),
      createdAt: r.created_at,
    })),
    /** The order's returns and exchanges, oldest first, each opened in the Returns tab (decision 0039). */
    returns: returns.map((r) => ({
      id: r.id,
      status: r.status,
      resolution: r.resolution,
      createdAt: r.created_at,
    })),
    emails,
    timeline,
    events: stripeEvents.map((e) => ({
      id: e.id,
      type: e.type,
      outcome: e.outcome,
      receivedAt: e.received_at,
    })),
    stockProblem: order.stock_problem,
    customerPageUrl:
      paid && order.access_token ? `${publicUrl}${orderPagePath(order.id, order.access_token)}` : null,
    can: {
      ship: (paid || step === 'confirmed') && order.fulfilment === 'unfulfilled',
      // A cash-on-delivery order is delivered by recording its cash (recordCashCollected).
      markDelivered: order.fulfilment === 'shipped' && !cod,
      cancel:
        order.fulfilment === 'unfulfilled' &&
        (paid || (order.payment_method !== 'card' && ['pending', 'processing'].includes(order.status))),
      refund: record.refundableMinor > 0,
      recordCashCollected: codDue,
      returnedToOrigin: codDue,
      recordTransfer: step === 'awaiting_transfer',
    },
  };
}

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
