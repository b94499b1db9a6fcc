import { describe, expect, it } from 'vitest';
import { orderData } from '../../test-support/email-fixtures.js';
import { orderConfirmationEmail, orderRefundEmail, orderShippedEmail } from './order-emails.js';

const HOSTILE = '<script>alert(1)</script>';
const ATTRIBUTE_BREAK = '"><img src=x onerror=alert(1)>';

function hostileData() {
  const d = orderData({
    customerName: ATTRIBUTE_BREAK,
    lines: [{ title: HOSTILE, size: '<b>XL</b>', quantity: 1, unitPriceMinor: 100, lineTotalMinor: 100 }],
    subtotalMinor: 100,
    totalMinor: 100,
    shippingAddress: {
      name: 'O\'Brien & "Sons"',
      line1: '<iframe src="https://evil.example">',
      city: 'Lahore',
      postalCode: '54000',
      country: 'PK',
    },
  });
  return { ...d, store: { ...d.store, name: 'A & <B> Store', contactEmail: 'x@example.com"><script>' } };
}

/** What a mail client would render as markup: every tag name in the HTML. */
function tags(html: string): string[] {
  return [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => (m[1] ?? '').toLowerCase());
}

describe('order emails', () => {
  it('escape every value people typed, in text and in attributes', () => {
    const shipped = orderShippedEmail({
      ...hostileData(),
      shipment: {
        carrier: HOSTILE,
        trackingNumber: ATTRIBUTE_BREAK,
        trackingUrl: 'https://t.example/?q="><script>',
      },
    });
    const refund = orderRefundEmail({
      ...hostileData(),
      refund: {
        amountMinor: 100,
        totalRefundedMinor: 100,
        reason: HOSTILE,
        lines: [{ title: HOSTILE, size: null, quantity: 1 }],
      },
    });
    for (const email of [orderConfirmationEmail(hostileData()), shipped, refund]) {
      expect(tags(email.html)).not.toContain('script');
      expect(tags(email.html)).not.toContain('img');
      expect(tags(email.html)).not.toContain('iframe');
      expect(tags(email.html)).not.toContain('b');
      expect(email.html).not.toContain(ATTRIBUTE_BREAK);
      expect(email.html).not.toContain(HOSTILE);
      expect(email.html).toContain('A &amp; &lt;B&gt; Store');
    }
    expect(orderConfirmationEmail(hostileData()).html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(orderConfirmationEmail(hostileData()).html).toContain('O&#39;Brien &amp; &quot;Sons&quot;');
    expect(shipped.html).toContain('href="https://t.example/?q=&quot;&gt;&lt;script&gt;"');
  });

  it('are accessible documents with no images: language, title, a table of the lines with headers', () => {
    const { html } = orderConfirmationEmail(orderData());
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en"/);
    expect(html).toContain('<title>Order #1042 confirmed — Zari &amp; Co</title>');
    expect(html).toContain('<caption');
    expect(html.match(/<th scope="col"/g)).toHaveLength(5);
    expect(html).toContain('<th scope="row" colspan="4"');
    expect(tags(html)).not.toContain('img');
    expect(html).not.toMatch(/\bsrc=|url\(/);
    // Text colours are the ones checked for contrast on white (and white on the maroon button only).
    const textColours = new Set(html.match(/(?<![a-z-])color:#[0-9a-f]{6}/g));
    expect([...textColours].sort()).toEqual([
      'color:#1c1917',
      'color:#57534e',
      'color:#7f1d1d',
      'color:#ffffff',
    ]);
    expect(html).toMatch(/background:#7f1d1d;color:#ffffff/);
  });

  it('show totals as exact decimal text in the currency, never through floats', () => {
    const d = orderData({
      lines: [{ title: 'Socks', size: null, quantity: 3, unitPriceMinor: 10, lineTotalMinor: 30 }],
      subtotalMinor: 30,
      totalMinor: 30,
    });
    const { html, text } = orderConfirmationEmail(d);
    expect(text).toContain('- Socks: 3 × $0.10 = $0.30');
    expect(text).toContain('Total paid: $0.30');
    expect(text).not.toContain('Shipping and adjustments');
    expect(html).toContain('>$0.30</td>');
  });

  it('have a text part that reads on its own: every line, the totals, the address and the order link', () => {
    const { text, subject } = orderConfirmationEmail(orderData());
    expect(subject).toBe('Order #1042 confirmed — Zari & Co');
    expect(text).not.toMatch(/<[a-z]/i);
    expect(text).toContain('- Lawn Kurta (size M): 2 × $44.50 = $89.00');
    expect(text).toContain('- Silk Dupatta: 1 × $19.99 = $19.99');
    expect(text).toContain('Subtotal: $108.99\nShipping and adjustments: $10.00\nTotal paid: $118.99');
    expect(text).toContain('Shipping to\nAmina Khan\n12 Mall Road\nLahore, Punjab, 54000\nPakistan');
    expect(text).toContain('View your order: https://shop.example/order/ord_1?token=abc123');
    expect(text).toContain('Reply to this email, write to help@zari.example');
  });

  it('tell the carrier and tracking, linking only to web addresses', () => {
    const shipped = orderShippedEmail({
      ...orderData(),
      shipment: {
        carrier: 'TCS',
        trackingNumber: 'TCS 123',
        trackingUrl: 'https://tcs.example/track?n=TCS123&x=1',
      },
    });
    expect(shipped.subject).toBe('Order #1042 is on its way');
    expect(shipped.text).toContain(
      'Carrier: TCS\nTracking number: TCS 123\nTrack your parcel: https://tcs.example/track?n=TCS123&x=1',
    );
    expect(shipped.html).toContain('href="https://tcs.example/track?n=TCS123&amp;x=1"');
    const sneaky = orderShippedEmail({
      ...orderData(),
      shipment: { carrier: 'TCS', trackingNumber: '1', trackingUrl: 'javascript:alert(1)' },
    });
    expect(sneaky.html).not.toContain('javascript:');
    expect(sneaky.text).not.toContain('javascript:');
  });

  it('say how much was refunded now and in all, why, and for which items', () => {
    const partial = orderRefundEmail({
      ...orderData(),
      refund: {
        amountMinor: 4450,
        totalRefundedMinor: 4450,
        reason: 'Size too small',
        lines: [{ title: 'Lawn Kurta', size: 'M', quantity: 1 }],
      },
    });
    expect(partial.subject).toBe('Refund for order #1042');
    expect(partial.text).toContain(
      'We have refunded $44.50 for order #1042. This is part of the $118.99 you paid',
    );
    expect(partial.text).toContain('Reason: Size too small');
    expect(partial.text).toContain('Refunded items\n- Lawn Kurta (size M) × 1');
    const second = orderRefundEmail({
      ...orderData(),
      refund: { amountMinor: 1000, totalRefundedMinor: 5450, reason: null, lines: [] },
    });
    expect(second.text).toContain('In all, $54.50 of the $118.99 you paid has been refunded.');
    expect(second.text).not.toContain('Reason:');
    const full = orderRefundEmail({
      ...orderData(),
      refund: { amountMinor: 7449, totalRefundedMinor: 11899, reason: null, lines: [] },
    });
    expect(full.text).toContain('Order #1042 has now been refunded in full.');
    expect(full.html).toContain(
      '<h1 style="margin:0 0 16px;font-size:24px;line-height:1.3;color:#1c1917;">We have refunded $74.49</h1>',
    );
  });

  it('name a line\'s colour and size ("Teal / M"), escaped, and leave lines without a colour as they were', () => {
    const plain = orderConfirmationEmail(orderData());
    expect(plain.html).toMatch(/<th scope="col" style="[^"]*">Size<\/th>/);
    expect(plain.text).toContain('- Lawn Kurta (size M): 2 × $44.50 = $89.00');
    const d = orderData();
    const coloured = orderConfirmationEmail({
      ...d,
      order: {
        ...d.order,
        lines: [
          {
            title: 'Lawn Kurta',
            colour: 'Teal',
            size: 'M',
            quantity: 1,
            unitPriceMinor: 8900,
            lineTotalMinor: 8900,
          },
          {
            title: 'Shawl',
            colour: '<b>Sea\nGreen</b>',
            size: null,
            quantity: 1,
            unitPriceMinor: 1,
            lineTotalMinor: 1,
          },
          {
            title: 'Silk Dupatta',
            colour: null,
            size: null,
            quantity: 1,
            unitPriceMinor: 1999,
            lineTotalMinor: 1999,
          },
        ],
      },
    });
    expect(coloured.html).toMatch(/<th scope="col" style="[^"]*">Colour \/ size<\/th>/);
    expect(coloured.html).toMatch(/>Lawn Kurta<\/td><td style="[^"]*">Teal \/ M<\/td>/);
    expect(coloured.html).toMatch(/>Shawl<\/td><td style="[^"]*">&lt;b&gt;Sea Green&lt;\/b&gt;<\/td>/);
    expect(coloured.html).toMatch(/>Silk Dupatta<\/td><td style="[^"]*">—<\/td>/);
    expect(tags(coloured.html)).not.toContain('b');
    expect(coloured.text).toContain('- Lawn Kurta (Teal / M): 1 × $89.00 = $89.00');
    expect(coloured.text).toContain('- Shawl (<b>Sea Green</b>): 1 × $0.01 = $0.01');
    expect(coloured.text).toContain('- Silk Dupatta: 1 × $19.99 = $19.99');
  });

  it('keep a subject on one line whatever the store is called', () => {
    const d = orderData();
    const { subject } = orderConfirmationEmail({
      ...d,
      store: { ...d.store, name: 'Shop\r\nBcc: everyone@example.com' },
    });
    expect(subject).toBe('Order #1042 confirmed — Shop Bcc: everyone@example.com');
  });
});
