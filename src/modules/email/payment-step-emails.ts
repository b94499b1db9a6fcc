import { formatMoney } from '../../shared/money.js';
import { emailDocument, escapeHtml, greeting, isWebUrl, oneLine, RECEIPT, style } from './email-layout.js';
import type { RenderedEmail } from './order-emails.js';

/**
 * The emails of the owner's steps on cash-on-delivery and bank-transfer orders (decision 0038): the cash was
 * collected at the door, the parcel came back, the transfer arrived. Plain data in, no I/O, as order-emails.ts.
 */

export type PaymentStepEmailData = {
  store: { name: string; publicUrl: string };
  order: { number: number; currency: string; customerName: string | null; pageUrl: string };
};

export type PaymentStepMail =
  | { step: 'collected'; amountMinor: number }
  | { step: 'returned' }
  | { step: 'transfer_received'; amountMinor: number; reference: string; receivedOn: string };

function wording(
  d: PaymentStepEmailData,
  mail: PaymentStepMail,
): { subject: string; heading: string; body: string } {
  const n = d.order.number;
  switch (mail.step) {
    case 'collected':
      return {
        subject: `Order #${n} delivered — thank you`,
        heading: 'Your order was delivered',
        body: `Order #${n} was delivered and we received your payment of ${formatMoney(mail.amountMinor, d.order.currency, RECEIPT)} in cash. Thank you for shopping with us.`,
      };
    case 'returned':
      return {
        subject: `Order #${n} came back to us`,
        heading: 'Your parcel came back to us',
        body: `The courier could not deliver order #${n} and returned it to us, so the order is closed and nothing is due. If you still want it, you are welcome to order again, or reply to this email.`,
      };
    case 'transfer_received':
      return {
        subject: `Order #${n}: we received your transfer`,
        heading: 'We received your transfer',
        body: `We received your bank transfer of ${formatMoney(mail.amountMinor, d.order.currency, RECEIPT)} for order #${n} (reference ${oneLine(mail.reference, 100)}, ${mail.receivedOn}) and are getting your order ready. We will email you again when it ships.`,
      };
  }
}

export function paymentStepEmail(d: PaymentStepEmailData, mail: PaymentStepMail): RenderedEmail {
  const w = wording(d, mail);
  const subject = oneLine(`${w.subject} — ${d.store.name}`, 300);
  const hello = greeting(d.order.customerName);
  const link = isWebUrl(d.order.pageUrl)
    ? `<p style="${style.p}"><a href="${escapeHtml(d.order.pageUrl)}" style="${style.button}">View your order</a></p>`
    : '';
  const html = emailDocument({
    title: subject,
    storeName: d.store.name,
    body: [
      `<h1 style="${style.h1}">${escapeHtml(w.heading)}</h1>`,
      `<p style="${style.p}">${escapeHtml(hello)}</p>`,
      `<p style="${style.p}">${escapeHtml(w.body)}</p>`,
      link,
    ].join('\n'),
    footer: `<p style="${style.muted}">You receive this email because you placed order #${d.order.number} at ${escapeHtml(d.store.name)}.</p>`,
  });
  const text = [
    hello,
    '',
    w.body,
    '',
    ...(isWebUrl(d.order.pageUrl) ? [`View your order: ${d.order.pageUrl}`, ''] : []),
    `You receive this email because you placed order #${d.order.number} at ${oneLine(d.store.name)}.`,
  ].join('\n');
  return { subject, html, text };
}
