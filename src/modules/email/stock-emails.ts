import { MAX_COLOUR_NAME } from '../../shared/colours.js';
import { emailDocument, escapeHtml, isWebUrl, oneLine, style } from './email-layout.js';
import type { RenderedEmail, StoreIdentity } from './order-emails.js';

/** A size a shopper asked about is back: one email, with the product's link, and why they got it. */
export function backInStockEmail(d: {
  store: StoreIdentity;
  product: { title: string; size: string; url: string };
}): RenderedEmail {
  const title = oneLine(d.product.title, 200);
  // "Teal / M" since colours (decision 0036): a colour's name (up to 50) and a size (up to 20), whole.
  const size = oneLine(d.product.size, MAX_COLOUR_NAME + 3 + 20);
  const subject = oneLine(`${title} in ${size} is back — ${d.store.name}`, 300);
  const link = isWebUrl(d.product.url)
    ? `<p style="${style.p}"><a href="${escapeHtml(d.product.url)}" style="${style.button}">See ${escapeHtml(title)}</a></p>`
    : '';
  const why = `You receive this email because you asked ${d.store.name} to tell you when ${title} in ${size} was back. We will not email you about it again.`;
  const html = emailDocument({
    title: subject,
    storeName: d.store.name,
    body: [
      `<h1 style="${style.h1}">${escapeHtml(title)} is back in ${escapeHtml(size)}</h1>`,
      `<p style="${style.p}">The size you asked about can be bought again, while it lasts.</p>`,
      link,
    ].join('\n'),
    footer: `<p style="${style.muted}">${escapeHtml(why)}</p>`,
  });
  const text = [
    `${title} is back in ${size}.`,
    '',
    'The size you asked about can be bought again, while it lasts.',
    '',
    ...(isWebUrl(d.product.url) ? [`See it: ${d.product.url}`, ''] : []),
    why,
  ].join('\n');
  return { subject, html, text };
}
