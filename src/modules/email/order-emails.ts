import { variantLabel } from '../../shared/colours.js';
import { formatMoney } from '../../shared/money.js';
import { struckRegularPrice } from '../../shared/order-charges.js';
import { emailDocument, escapeHtml, greeting, isWebUrl, oneLine, RECEIPT, style } from './email-layout.js';

/**
 * The order emails, rendered from plain data: no I/O, so the caller reads the order and the settings in its
 * own transaction and queues the result (outbox.repository.ts). Each has an HTML part and a text part that
 * reads well on its own. Amounts are integer minor units shown through formatMoney, exactly.
 */

export type StoreIdentity = {
  name: string;
  contactEmail: string | null;
  contactUrl: string | null;
  publicUrl: string;
};

export type OrderEmailAddress = {
  name?: string | null;
  line1: string;
  line2?: string | null;
  city: string;
  state?: string | null;
  postalCode: string;
  country: string;
};

export type OrderEmailLine = {
  title: string;
  /** The colour's name as bought; null or absent for a product without colours. */
  colour?: string | null;
  size: string | null;
  quantity: number;
  unitPriceMinor: number;
  /** What the line was charged, after its share of the code. */
  lineTotalMinor: number;
  /** The price before the sale; null or absent on lines from before sales (decision 0037). */
  regularUnitPriceMinor?: number | null;
  /** The line's share of the code, already taken off lineTotalMinor. */
  discountMinor?: number;
  saleName?: string | null;
};

export type OrderEmailData = {
  store: StoreIdentity;
  order: {
    number: number;
    currency: string;
    lines: OrderEmailLine[];
    /** The lines at their (sale) prices, before the code. */
    subtotalMinor: number;
    /** The code's discount, shown between the subtotal and the total; absent or 0 when none. */
    discount?: { label: string; amountMinor: number };
    /** What was paid, shipping included. */
    totalMinor: number;
    customerName: string | null;
    shippingAddress: OrderEmailAddress | null;
    /** Absolute link to the customer's order page (/order/{id}?token=...). */
    pageUrl: string;
  };
};

export type ShipmentInfo = { carrier: string; trackingNumber: string; trackingUrl: string | null };

export type RefundInfo = {
  amountMinor: number;
  totalRefundedMinor: number;
  reason: string | null;
  lines: Array<{ title: string; colour?: string | null; size: string | null; quantity: number }>;
  /** A refund paid back by hand (cash on delivery, transfer): how the shop paid it; absent for a card's. */
  paidVia?: string | null;
};

export type RenderedEmail = { subject: string; html: string; text: string };

/** A paid order: what was bought, what it cost, where it goes, and the link to follow it. */
export function orderConfirmationEmail(d: OrderEmailData): RenderedEmail {
  const { order, store } = d;
  const subject = oneLine(`Order #${order.number} confirmed — ${store.name}`, 300);
  const hello = greeting(order.customerName);
  const html = emailDocument({
    title: subject,
    storeName: store.name,
    body: [
      `<h1 style="${style.h1}">Thank you for your order</h1>`,
      `<p style="${style.p}">${escapeHtml(hello)}</p>`,
      `<p style="${style.p}">We have received your payment for order #${order.number} and are getting it ready. We will email you again when it ships.</p>`,
      orderLinkHtml(order.pageUrl),
      `<h2 style="${style.h2}">Your order</h2>`,
      linesTableHtml(order),
      shippingAddressHtml(order.shippingAddress),
    ].join('\n'),
    footer: footerHtml(store, order.number),
  });
  const text = [
    hello,
    '',
    `We have received your payment for order #${order.number} and are getting it ready. We will email you again when it ships.`,
    '',
    ...orderLinkText(order.pageUrl),
    ...linesText(order),
    ...shippingAddressText(order.shippingAddress),
    ...footerText(store, order.number),
  ].join('\n');
  return { subject, html, text };
}

/** The order left the store: carrier, tracking number and link. */
export function orderShippedEmail(d: OrderEmailData & { shipment: ShipmentInfo }): RenderedEmail {
  const { order, store, shipment } = d;
  const subject = oneLine(`Order #${order.number} is on its way`, 300);
  const hello = greeting(order.customerName);
  const carrier = oneLine(shipment.carrier);
  const tracking = oneLine(shipment.trackingNumber);
  const trackingLink = isWebUrl(shipment.trackingUrl)
    ? `<p style="${style.p}"><a href="${escapeHtml(shipment.trackingUrl)}" style="${style.link}">Track your parcel with ${escapeHtml(carrier)}</a></p>`
    : '';
  const html = emailDocument({
    title: subject,
    storeName: store.name,
    body: [
      `<h1 style="${style.h1}">Your order is on its way</h1>`,
      `<p style="${style.p}">${escapeHtml(hello)}</p>`,
      `<p style="${style.p}">Order #${order.number} has shipped.</p>`,
      `<p style="${style.p}">Carrier: <strong>${escapeHtml(carrier)}</strong><br>Tracking number: <strong>${escapeHtml(tracking)}</strong></p>`,
      trackingLink,
      orderLinkHtml(order.pageUrl),
      shippingAddressHtml(order.shippingAddress),
      `<h2 style="${style.h2}">What is in the parcel</h2>`,
      linesTableHtml(order),
    ].join('\n'),
    footer: footerHtml(store, order.number),
  });
  const text = [
    hello,
    '',
    `Order #${order.number} has shipped.`,
    '',
    `Carrier: ${carrier}`,
    `Tracking number: ${tracking}`,
    ...(isWebUrl(shipment.trackingUrl) ? [`Track your parcel: ${shipment.trackingUrl}`] : []),
    '',
    ...orderLinkText(order.pageUrl),
    ...shippingAddressText(order.shippingAddress),
    ...linesText(order),
    ...footerText(store, order.number),
  ].join('\n');
  return { subject, html, text };
}

/** Money went back to the customer: how much now, how much in all, for what and why. */
export function orderRefundEmail(d: OrderEmailData & { refund: RefundInfo }): RenderedEmail {
  const { order, store, refund } = d;
  const subject = oneLine(`Refund for order #${order.number}`, 300);
  const hello = greeting(order.customerName);
  const amount = formatMoney(refund.amountMinor, order.currency, RECEIPT);
  const inFull = refund.totalRefundedMinor >= order.totalMinor;
  const paid = formatMoney(order.totalMinor, order.currency, RECEIPT);
  const overall = inFull
    ? `Order #${order.number} has now been refunded in full.`
    : refund.totalRefundedMinor === refund.amountMinor
      ? `This is part of the ${paid} you paid; the rest of your order stands.`
      : `In all, ${formatMoney(refund.totalRefundedMinor, order.currency, RECEIPT)} of the ${paid} you paid has been refunded.`;
  const timing = refund.paidVia
    ? `We paid it back to you by ${oneLine(refund.paidVia, 100)}.`
    : 'The money goes back to the card or account you paid with; banks usually take 5 to 10 business days to show it.';
  const reason = refund.reason ? oneLine(refund.reason, 500) : null;
  const html = emailDocument({
    title: subject,
    storeName: store.name,
    body: [
      `<h1 style="${style.h1}">We have refunded ${escapeHtml(amount)}</h1>`,
      `<p style="${style.p}">${escapeHtml(hello)}</p>`,
      `<p style="${style.p}">We have refunded <strong>${escapeHtml(amount)}</strong> for order #${order.number}. ${escapeHtml(overall)}</p>`,
      reason ? `<p style="${style.p}">Reason: ${escapeHtml(reason)}</p>` : '',
      `<p style="${style.p}">${escapeHtml(timing)}</p>`,
      refund.lines.length > 0 ? refundLinesTableHtml(order.number, refund.lines) : '',
      orderLinkHtml(order.pageUrl),
    ].join('\n'),
    footer: footerHtml(store, order.number),
  });
  const text = [
    hello,
    '',
    `We have refunded ${amount} for order #${order.number}. ${overall}`,
    ...(reason ? ['', `Reason: ${reason}`] : []),
    '',
    timing,
    '',
    ...(refund.lines.length > 0
      ? ['Refunded items', ...refund.lines.map((l) => `- ${itemText(l)} × ${l.quantity}`), '']
      : []),
    ...orderLinkText(order.pageUrl),
    ...footerText(store, order.number),
  ].join('\n');
  return { subject, html, text };
}

/** Amounts as a receipt shows them: always the currency's full decimals ($89.00 beside $19.99). */

type ItemNames = { title: string; colour?: string | null; size: string | null };

/** "Lawn Kurta (Teal / M)" for a line with a colour; a line without one reads as it always did. */
function itemText(l: ItemNames): string {
  const title = oneLine(l.title);
  if (l.colour) return `${title} (${variantCell(l)})`;
  return l.size ? `${title} (size ${oneLine(l.size, 20)})` : title;
}

/** What the table's second column shows of a line: "Teal / M", "M", or a dash when there is neither. */
function variantCell(l: ItemNames): string {
  return variantLabel(l.colour ? oneLine(l.colour, 50) : null, l.size ? oneLine(l.size, 20) : null) || '—';
}

/** "Size" as always, or "Colour / size" once a line of the table has a colour. */
function variantHeader(lines: readonly ItemNames[]): string {
  return lines.some((l) => l.colour) ? 'Colour / size' : 'Size';
}

function orderLinkHtml(pageUrl: string): string {
  if (!isWebUrl(pageUrl)) return '';
  return `<p style="${style.p}"><a href="${escapeHtml(pageUrl)}" style="${style.button}">View your order</a></p>`;
}

function orderLinkText(pageUrl: string): string[] {
  return isWebUrl(pageUrl) ? [`View your order: ${pageUrl}`, ''] : [];
}

/** The lines with a header row, and the totals as row-headed footer rows, so a screen reader names each cell. */
function linesTableHtml(order: OrderEmailData['order']): string {
  const c = order.currency;
  const rows = order.lines
    .map(
      (l) =>
        `<tr><td style="${style.td}">${escapeHtml(oneLine(l.title))}</td><td style="${style.td}">${escapeHtml(variantCell(l))}</td><td style="${style.tdNum}">${l.quantity}</td><td style="${style.tdNum}">${priceCellHtml(l, c)}</td><td style="${style.tdNum}">${totalCellHtml(l, c)}</td></tr>`,
    )
    .join('\n');
  const discount = discountOf(order);
  const adjustments = order.totalMinor - (order.subtotalMinor - (discount?.amountMinor ?? 0));
  const total = (label: string, amount: number | string, strong = false) =>
    `<tr><th scope="row" colspan="4" style="${strong ? style.rowHeadStrong : style.rowHead}">${escapeHtml(label)}</th><td style="${style.tdNum}${strong ? 'font-weight:700;' : ''}">${escapeHtml(typeof amount === 'string' ? amount : formatMoney(amount, c, RECEIPT))}</td></tr>`;
  return `<table style="${style.table}">
<caption style="${style.caption}">Items in order #${order.number}</caption>
<thead><tr><th scope="col" style="${style.th}">Item</th><th scope="col" style="${style.th}">${variantHeader(order.lines)}</th><th scope="col" style="${style.thNum}">Quantity</th><th scope="col" style="${style.thNum}">Price</th><th scope="col" style="${style.thNum}">Total</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot>
${total('Subtotal', order.subtotalMinor)}${discount ? `\n${total(oneLine(discount.label, 100), `−${formatMoney(discount.amountMinor, c, RECEIPT)}`)}` : ''}
${adjustments !== 0 ? total('Shipping and adjustments', adjustments) : ''}
${total('Total paid', order.totalMinor, true)}
</tfoot>
</table>`;
}

/** The code's discount when the order had one. */
function discountOf(order: OrderEmailData['order']): { label: string; amountMinor: number } | null {
  return order.discount && order.discount.amountMinor > 0 ? order.discount : null;
}

/** The unit price, and under a sale the regular one struck through with the sale's name. */
function priceCellHtml(l: OrderEmailLine, c: string): string {
  const unit = escapeHtml(formatMoney(l.unitPriceMinor, c, RECEIPT));
  const regular = struckRegularPrice({
    regularUnitPriceMinor: l.regularUnitPriceMinor ?? null,
    unitPriceMinor: l.unitPriceMinor,
  });
  if (regular === null) return unit;
  const sale = l.saleName
    ? `<br><span style="${style.small}">${escapeHtml(oneLine(l.saleName, 100))}</span>`
    : '';
  return `<s>${escapeHtml(formatMoney(regular, c, RECEIPT))}</s> ${unit}${sale}`;
}

/** What the line was charged, and under it the code's share taken off it. */
function totalCellHtml(l: OrderEmailLine, c: string): string {
  const total = escapeHtml(formatMoney(l.lineTotalMinor, c, RECEIPT));
  const share = l.discountMinor ?? 0;
  return share > 0
    ? `${total}<br><span style="${style.small}">after code discount −${escapeHtml(formatMoney(share, c, RECEIPT))}</span>`
    : total;
}

/** "3 × $16.00 (Eid sale, regular $20.00) − $4.80 code discount = $43.20"; an old line reads as before. */
function lineText(l: OrderEmailLine, c: string): string {
  const regular = struckRegularPrice({
    regularUnitPriceMinor: l.regularUnitPriceMinor ?? null,
    unitPriceMinor: l.unitPriceMinor,
  });
  const sale =
    regular === null
      ? ''
      : ` (${l.saleName ? `${oneLine(l.saleName, 100)}, ` : ''}regular ${formatMoney(regular, c, RECEIPT)})`;
  const share = l.discountMinor ?? 0;
  const code = share > 0 ? ` − ${formatMoney(share, c, RECEIPT)} code discount` : '';
  return `- ${itemText(l)}: ${l.quantity} × ${formatMoney(l.unitPriceMinor, c, RECEIPT)}${sale}${code} = ${formatMoney(l.lineTotalMinor, c, RECEIPT)}`;
}

function linesText(order: OrderEmailData['order']): string[] {
  const c = order.currency;
  const discount = discountOf(order);
  const adjustments = order.totalMinor - (order.subtotalMinor - (discount?.amountMinor ?? 0));
  return [
    `Items in order #${order.number}`,
    ...order.lines.map((l) => lineText(l, c)),
    '',
    `Subtotal: ${formatMoney(order.subtotalMinor, c, RECEIPT)}`,
    ...(discount
      ? [`${oneLine(discount.label, 100)}: −${formatMoney(discount.amountMinor, c, RECEIPT)}`]
      : []),
    ...(adjustments !== 0 ? [`Shipping and adjustments: ${formatMoney(adjustments, c, RECEIPT)}`] : []),
    `Total paid: ${formatMoney(order.totalMinor, c, RECEIPT)}`,
    '',
  ];
}

function refundLinesTableHtml(orderNumber: number, lines: RefundInfo['lines']): string {
  const rows = lines
    .map(
      (l) =>
        `<tr><td style="${style.td}">${escapeHtml(oneLine(l.title))}</td><td style="${style.td}">${escapeHtml(variantCell(l))}</td><td style="${style.tdNum}">${l.quantity}</td></tr>`,
    )
    .join('\n');
  return `<table style="${style.table}">
<caption style="${style.caption}">Refunded items of order #${orderNumber}</caption>
<thead><tr><th scope="col" style="${style.th}">Item</th><th scope="col" style="${style.th}">${variantHeader(lines)}</th><th scope="col" style="${style.thNum}">Quantity</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();

function countryName(code: string): string {
  const clean = oneLine(code, 60);
  if (!/^[A-Za-z]{2}$/.test(clean)) return clean;
  try {
    return regionNames?.of(clean.toUpperCase()) ?? clean;
  } catch {
    return clean;
  }
}

function addressLines(a: OrderEmailAddress): string[] {
  const cityLine = [a.city, a.state, a.postalCode]
    .map((p) => (p ? oneLine(p, 100) : ''))
    .filter(Boolean)
    .join(', ');
  return [a.name, a.line1, a.line2, cityLine, countryName(a.country)]
    .map((p) => (p ? oneLine(p, 200) : ''))
    .filter(Boolean);
}

function shippingAddressHtml(a: OrderEmailAddress | null): string {
  if (!a) return '';
  return `<h2 style="${style.h2}">Shipping to</h2>
<address style="${style.address}">${addressLines(a).map(escapeHtml).join('<br>')}</address>`;
}

function shippingAddressText(a: OrderEmailAddress | null): string[] {
  return a ? ['Shipping to', ...addressLines(a), ''] : [];
}

function contactSentence(store: StoreIdentity): { html: string; text: string } | null {
  const email = store.contactEmail ? oneLine(store.contactEmail, 254) : null;
  const url = isWebUrl(store.contactUrl) ? store.contactUrl : null;
  if (email && url)
    return {
      html: `Questions? Reply to this email, write to <a href="mailto:${escapeHtml(email)}" style="${style.link}">${escapeHtml(email)}</a> or use <a href="${escapeHtml(url)}" style="${style.link}">our contact page</a>.`,
      text: `Questions? Reply to this email, write to ${email} or use our contact page: ${url}`,
    };
  if (email)
    return {
      html: `Questions? Reply to this email or write to <a href="mailto:${escapeHtml(email)}" style="${style.link}">${escapeHtml(email)}</a>.`,
      text: `Questions? Reply to this email or write to ${email}.`,
    };
  if (url)
    return {
      html: `Questions? Use <a href="${escapeHtml(url)}" style="${style.link}">our contact page</a>.`,
      text: `Questions? Use our contact page: ${url}`,
    };
  return null;
}

function footerHtml(store: StoreIdentity, orderNumber: number): string {
  const contact = contactSentence(store);
  const shop = isWebUrl(store.publicUrl)
    ? `<a href="${escapeHtml(store.publicUrl)}" style="${style.link}">${escapeHtml(store.name)}</a>`
    : escapeHtml(store.name);
  return [
    contact ? `<p style="${style.muted}">${contact.html}</p>` : '',
    `<p style="${style.muted}">You receive this email because you placed order #${orderNumber} at ${shop}.</p>`,
  ].join('\n');
}

function footerText(store: StoreIdentity, orderNumber: number): string[] {
  const contact = contactSentence(store);
  return [
    ...(contact ? [contact.text, ''] : []),
    `You receive this email because you placed order #${orderNumber} at ${oneLine(store.name)}${isWebUrl(store.publicUrl) ? ` (${store.publicUrl})` : ''}.`,
  ];
}
