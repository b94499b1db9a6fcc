import { variantLabel } from '../../shared/colours.js';
import { formatMoney } from '../../shared/money.js';
import { emailDocument, escapeHtml, greeting, isWebUrl, oneLine, RECEIPT, style } from './email-layout.js';
import type { RenderedEmail, StoreIdentity } from './order-emails.js';

/**
 * The emails of an order paid at the door or by transfer (decision 0038): placed (what to do next),
 * confirmed, and expired. Plain data in, no I/O, as order-emails.ts.
 */

export type OfflineEmailData = {
  store: StoreIdentity;
  order: {
    number: number;
    currency: string;
    lines: Array<{ title: string; colour: string | null; size: string | null; quantity: number }>;
    /** What the shopper pays: lines less the code, shipping and the method's fee. */
    totalMinor: number;
    /** The cash-on-delivery fee, part of totalMinor; 0 otherwise. */
    feeMinor: number;
    customerName: string | null;
    /** Absolute link to the shopper's order page. */
    pageUrl: string;
  };
};

/** "Tuesday, 24 November 2026 at 10:00 UTC": a deadline nobody can misread across time zones. */
export function deadlineText(at: Date): string {
  return `${at.toLocaleString('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' })} UTC`;
}

function linesText(d: OfflineEmailData): string[] {
  return d.order.lines.map((l) => {
    const variant = variantLabel(l.colour, l.size);
    return `${l.quantity} × ${oneLine(l.title)}${variant ? ` (${variant})` : ''}`;
  });
}

function render(
  d: OfflineEmailData,
  subject: string,
  heading: string,
  paragraphs: string[],
  action: { label: string; url: string } | null,
): RenderedEmail {
  const link = action && isWebUrl(action.url) ? action : null;
  const page = isWebUrl(d.order.pageUrl) ? d.order.pageUrl : null;
  const html = emailDocument({
    title: subject,
    storeName: d.store.name,
    body: [
      `<h1 style="${style.h1}">${escapeHtml(heading)}</h1>`,
      `<p style="${style.p}">${escapeHtml(greeting(d.order.customerName))}</p>`,
      ...paragraphs.map((p) => `<p style="${style.p}">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`),
      link
        ? `<p style="${style.p}"><a href="${escapeHtml(link.url)}" style="${style.button}">${escapeHtml(link.label)}</a></p>`
        : '',
      page && page !== link?.url
        ? `<p style="${style.p}"><a href="${escapeHtml(page)}" style="${style.link}">View your order</a></p>`
        : '',
      `<p style="${style.p}">${linesText(d).map(escapeHtml).join('<br>')}</p>`,
    ].join('\n'),
    footer: `<p style="${style.p}">${escapeHtml(d.store.name)} · order #${d.order.number}</p>`,
  });
  const text = [
    greeting(d.order.customerName),
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(link ? [`${link.label}: ${link.url}`, ''] : []),
    ...(page && page !== link?.url ? [`View your order: ${page}`, ''] : []),
    ...linesText(d),
    '',
    `${d.store.name} · order #${d.order.number}`,
  ].join('\n');
  return { subject: oneLine(subject, 300), html, text };
}

function money(amountMinor: number, currency: string): string {
  return formatMoney(amountMinor, currency, RECEIPT);
}

/** Cash on delivery placed: confirm by the link before the deadline, then pay this at the door. */
export function codPlacedEmail(d: OfflineEmailData, confirm: { url: string; by: Date }): RenderedEmail {
  const { order } = d;
  const fee =
    order.feeMinor > 0
      ? ` (including the cash-on-delivery fee of ${money(order.feeMinor, order.currency)})`
      : '';
  return render(
    d,
    `Please confirm order #${order.number} — ${d.store.name}`,
    'Please confirm your order',
    [
      `Thank you for order #${order.number}. Please confirm it by ${deadlineText(confirm.by)}; an order not confirmed by then is cancelled and its items go back on sale.`,
      `You pay ${money(order.totalMinor, order.currency)} in cash at the door${fee}.`,
    ],
    { label: 'Confirm your order', url: confirm.url },
  );
}

/** Bank transfer placed: the account, the reference to quote, the amount and how long the order waits. */
export function bankPlacedEmail(
  d: OfflineEmailData,
  bank: { accountDetails: string; reference: string; holdUntil: Date },
): RenderedEmail {
  const { order } = d;
  return render(
    d,
    `Order #${order.number}: how to pay by bank transfer — ${d.store.name}`,
    'Your order is waiting for your transfer',
    [
      `Please transfer ${money(order.totalMinor, order.currency)} to:`,
      bank.accountDetails,
      `Quote this reference with your transfer: ${bank.reference}`,
      `We hold your items until ${deadlineText(bank.holdUntil)}. If the transfer has not arrived by then, the order is cancelled.`,
    ],
    null,
  );
}

/** Cash on delivery confirmed: the order is being prepared; the cash is due at the door. */
export function codConfirmedEmail(d: OfflineEmailData): RenderedEmail {
  const { order } = d;
  return render(
    d,
    `Order #${order.number} confirmed — ${d.store.name}`,
    'Your order is confirmed',
    [
      `Thank you for confirming order #${order.number}. We are getting it ready and will email you when it ships.`,
      `Please have ${money(order.totalMinor, order.currency)} ready in cash for the courier.`,
    ],
    null,
  );
}

/** Not confirmed or not paid in time: the order is cancelled and nothing is owed. */
export function offlineExpiredEmail(d: OfflineEmailData, why: 'not_confirmed' | 'not_paid'): RenderedEmail {
  const { order } = d;
  return render(
    d,
    `Order #${order.number} has been cancelled — ${d.store.name}`,
    'Your order has been cancelled',
    [
      why === 'not_confirmed'
        ? `Order #${order.number} was not confirmed in time, so it has been cancelled and you owe nothing.`
        : `We did not receive the transfer for order #${order.number} in time, so it has been cancelled. If you have sent it, please contact us.`,
      'You are welcome to order again.',
    ],
    null,
  );
}
