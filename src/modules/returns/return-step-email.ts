import { formatMoney } from '../../shared/money.js';
import {
  type DifferenceStatus,
  RETURN_REASON_LABEL,
  type ReturnReasonName,
  type ReturnStep,
} from '../../shared/returns.js';
import {
  emailDocument,
  escapeHtml,
  greeting,
  isWebUrl,
  oneLine,
  RECEIPT,
  style,
} from '../email/email-layout.js';
import type { RenderedEmail } from '../email/order-emails.js';

/**
 * The shopper's email of each step of a return or exchange (decision 0039). Plain data in, no I/O, as
 * payment-step-emails.ts: the queueing reads the rows (return-mail.ts).
 */
export type ReturnStepEmailData = {
  store: { name: string; publicUrl: string };
  order: { number: number; currency: string; customerName: string | null; pageUrl: string };
  ret: {
    reason: ReturnReasonName;
    resolution: 'exchange' | 'refund';
    /** "Kurta (M) × 1 → L" */
    lines: string[];
    declineReason: string | null;
    instructions: string;
    postagePaidBy: 'shopper' | 'shop';
    exchangeCarrier: string | null;
    exchangeTracking: string | null;
    refundedMinor: number | null;
    /**
     * The exchange's price difference (decision 0039), signed; null when there is none. payOnline: the
     * order was paid by card, so the shopper pays it from the order page.
     */
    difference?: {
      amountMinor: number;
      status: DifferenceStatus;
      payOnline: boolean;
      cashOnDelivery: boolean;
    } | null;
  };
};

/** What the email says of an exchange's price difference at the steps that mention it. */
function differenceWords(d: ReturnStepEmailData, step: ReturnStep): string[] {
  const diff = d.ret.difference;
  if (!diff || diff.amountMinor === 0) return [];
  const amount = formatMoney(Math.abs(diff.amountMinor), d.order.currency, RECEIPT);
  if (step === 'requested' || step === 'approved') {
    if (diff.amountMinor < 0)
      return [
        `Your replacement costs ${amount} less than what you bought: we refund the difference when we send it.`,
      ];
    const pay = diff.payOnline
      ? step === 'approved'
        ? 'Please pay it from your order page.'
        : 'You can pay it from your order page once we approve your exchange.'
      : diff.cashOnDelivery
        ? 'You pay it to the courier when the replacement is delivered.'
        : 'We will tell you how to pay it.';
    return [`Your replacement costs ${amount} more than what you bought. ${pay}`];
  }
  if (step === 'declined' || step === 'cancelled') {
    if (diff.amountMinor > 0 && diff.status === 'to_refund')
      return [`We will refund the ${amount} you paid for the price difference.`];
    if (diff.amountMinor > 0 && diff.status === 'due') return ['There is no price difference to pay.'];
    return [];
  }
  if (step === 'difference_paid' && diff.status === 'to_refund' && diff.amountMinor > 0)
    return ['Your exchange no longer goes ahead, so we will refund it to you.'];
  if (step === 'exchange_shipped') {
    if (diff.status === 'collect_on_delivery')
      return [`Please pay the courier ${amount}, the price difference, when the replacement arrives.`];
    if (diff.status === 'refunded') return [`We refunded ${amount}, the price difference, to you.`];
    if (diff.status === 'to_refund') return [`We will refund the price difference of ${amount} separately.`];
  }
  return [];
}

function wording(
  d: ReturnStepEmailData,
  step: ReturnStep,
): { subject: string; heading: string; body: string[] } {
  const n = d.order.number;
  const r = d.ret;
  const what = r.resolution === 'exchange' ? 'exchange' : 'return';
  switch (step) {
    case 'requested':
      return {
        subject: `Order #${n}: we received your ${what} request`,
        heading: `We received your ${what} request`,
        body: [
          `You asked to ${r.resolution === 'exchange' ? 'exchange' : 'return'} items of order #${n} (${RETURN_REASON_LABEL[r.reason].toLowerCase()}).`,
          r.resolution === 'exchange'
            ? 'The replacement is held for you until your return is closed. We will email you when we have looked at your request.'
            : 'We will email you when we have looked at your request.',
          ...differenceWords(d, step),
        ],
      };
    case 'approved':
      return {
        subject: `Order #${n}: your ${what} is approved`,
        heading: `Your ${what} is approved`,
        body: [
          'Please send the items back to us.',
          ...(r.instructions ? [oneLine(r.instructions, 2000)] : []),
          r.postagePaidBy === 'shop' ? 'We pay the return postage.' : 'The return postage is yours to pay.',
          ...differenceWords(d, step),
        ],
      };
    case 'declined':
      return {
        subject: `Order #${n}: your ${what} request was declined`,
        heading: `Your ${what} request was declined`,
        body: [
          `We cannot accept this ${what} of order #${n}.`,
          ...(r.declineReason ? [`Reason: ${oneLine(r.declineReason, 500)}`] : []),
          ...differenceWords(d, step),
          'Reply to this email if you have any questions.',
        ],
      };
    case 'received':
      return {
        subject: `Order #${n}: we received your parcel`,
        heading: 'We received your parcel',
        body: [
          r.resolution === 'exchange'
            ? 'Your returned items arrived. We will send the replacement shortly.'
            : 'Your returned items arrived. We will send your refund shortly.',
        ],
      };
    case 'exchange_shipped':
      return {
        subject: `Order #${n}: your exchange is on its way`,
        heading: 'Your exchange is on its way',
        body: [
          'We sent your replacement.',
          ...(r.exchangeTracking
            ? [
                `Tracking: ${oneLine(r.exchangeCarrier ?? '', 100)} ${oneLine(r.exchangeTracking, 100)}`
                  .replace(/\s+/g, ' ')
                  .trim(),
              ]
            : []),
          ...differenceWords(d, step),
        ],
      };
    case 'refunded':
      return {
        subject: `Order #${n}: your refund`,
        heading: 'Your refund is on its way',
        body: [
          r.resolution === 'exchange' && r.difference
            ? `We refunded ${formatMoney(Math.abs(r.difference.amountMinor), d.order.currency, RECEIPT)}, the price difference of your exchange on order #${n}.`
            : r.refundedMinor !== null
              ? `We refunded ${formatMoney(r.refundedMinor, d.order.currency, RECEIPT)} for the returned items of order #${n}.`
              : `We refunded the returned items of order #${n}.`,
        ],
      };
    case 'difference_paid':
      return {
        subject: `Order #${n}: price difference received`,
        heading: 'We received the price difference',
        body: [
          `Thank you: we received ${formatMoney(Math.abs(r.difference?.amountMinor ?? 0), d.order.currency, RECEIPT)}, the price difference of your exchange on order #${n}.`,
          ...differenceWords(d, step),
        ],
      };
    case 'cancelled':
      return {
        subject: `Order #${n}: your ${what} request is cancelled`,
        heading: `Your ${what} request is cancelled`,
        body: [
          `You cancelled your ${what} request for order #${n}; nothing more is needed.`,
          ...differenceWords(d, step),
        ],
      };
  }
}

export function returnStepEmail(d: ReturnStepEmailData, step: ReturnStep): RenderedEmail {
  const w = wording(d, step);
  const subject = oneLine(`${w.subject} — ${d.store.name}`, 300);
  const hello = greeting(d.order.customerName);
  const lines = d.ret.lines.map((l) => oneLine(l, 300));
  const link = isWebUrl(d.order.pageUrl)
    ? `<p style="${style.p}"><a href="${escapeHtml(d.order.pageUrl)}" style="${style.button}">View your order</a></p>`
    : '';
  const html = emailDocument({
    title: subject,
    storeName: d.store.name,
    body: [
      `<h1 style="${style.h1}">${escapeHtml(w.heading)}</h1>`,
      `<p style="${style.p}">${escapeHtml(hello)}</p>`,
      ...w.body.map((p) => `<p style="${style.p}">${escapeHtml(p)}</p>`),
      lines.length > 0 ? `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` : '',
      link,
    ].join('\n'),
    footer: `<p style="${style.muted}">You receive this email because you placed order #${d.order.number} at ${escapeHtml(d.store.name)}.</p>`,
  });
  const text = [
    hello,
    '',
    ...w.body.flatMap((p) => [p, '']),
    ...lines.map((l) => `- ${l}`),
    ...(lines.length > 0 ? [''] : []),
    ...(isWebUrl(d.order.pageUrl) ? [`View your order: ${d.order.pageUrl}`, ''] : []),
    `You receive this email because you placed order #${d.order.number} at ${oneLine(d.store.name)}.`,
  ].join('\n');
  return { subject, html, text };
}
