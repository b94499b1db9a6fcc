import { formatMoney } from '@shared/money';
import type { CustomerReturnView } from '@shared/returns';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ReturnProgress } from './return-progress';

const exchange = (difference: CustomerReturnView['difference'], status: CustomerReturnView['status']) =>
  ({
    id: 'ret_1',
    status,
    reason: 'too_small',
    resolution: 'exchange',
    createdAt: '2026-11-28T10:00:00.000Z',
    lines: [
      {
        lineId: 1,
        title: 'Kurta',
        quantity: 2,
        exchangeSize: 'L',
        exchangeColour: null,
        differenceMinor: difference?.amountMinor ?? 0,
      },
    ],
    difference,
    exchangeTracking: null,
    refundedMinor: null,
    declineReason: null,
  }) satisfies CustomerReturnView;

function render(item: CustomerReturnView, paymentMethod: 'card' | 'cash_on_delivery' = 'card') {
  return renderToStaticMarkup(
    createElement(ReturnProgress, {
      returns: [item],
      currency: 'pkr',
      paymentMethod,
      onCancel: () => undefined,
      cancelling: null,
      onPay: () => undefined,
      paying: null,
      refusal: null,
    }),
  );
}

describe("a return's progress on the order page", () => {
  it('shows a difference due with a Pay button described by it, only when it can be paid', () => {
    const html = render(exchange({ amountMinor: 100_000, status: 'due', canPay: true }, 'approved'));
    expect(html).toContain(`Price difference: ${formatMoney(100_000, 'pkr')} to pay.`);
    expect(html).toContain(`(${formatMoney(100_000, 'pkr')} more)`);
    expect(html).toMatch(/<button[^>]*aria-describedby="[^"]+"[^>]*>Pay the difference<\/button>/);
    const waiting = render(exchange({ amountMinor: 100_000, status: 'due', canPay: false }, 'requested'));
    expect(waiting).not.toContain('Pay the difference');
    expect(waiting).toContain('You can pay it here once the shop approves your return.');
  });

  it('says a difference owed back, and nothing about a difference when there is none', () => {
    const back = render(exchange({ amountMinor: -30_000, status: 'to_refund', canPay: false }, 'received'));
    expect(back).toContain(`Price difference: ${formatMoney(30_000, 'pkr')} back to you.`);
    expect(back).not.toContain('Pay the difference');
    const none = render(exchange(null, 'approved'));
    expect(none).not.toContain('Price difference');
    expect(none).not.toMatch(/\((more|less)\)/);
  });

  it('offers Cancel while the shop has not received the parcel, and opens no dialog until asked', () => {
    const html = render(exchange(null, 'approved'));
    expect(html).toContain('Cancel this return');
    expect(html).not.toContain('<dialog');
    expect(render(exchange(null, 'received'))).not.toContain('Cancel this return');
  });
});
