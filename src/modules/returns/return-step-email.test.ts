import { describe, expect, it } from 'vitest';
import { RETURN_STEPS } from '../../shared/returns.js';
import { returnStepEmail } from './return-step-email.js';

const data = {
  store: { name: 'Lawn & Co', publicUrl: 'https://shop.example' },
  order: {
    number: 1042,
    currency: 'usd',
    customerName: 'Ayesha <Khan>',
    pageUrl: 'https://shop.example/order/o1?token=t',
  },
  ret: {
    reason: 'too_small' as const,
    resolution: 'exchange' as const,
    lines: ['Lawn Kurta (M) × 1 → L'],
    declineReason: 'Worn <b>',
    instructions: 'Send to 12 Canal Road, Lahore',
    postagePaidBy: 'shop' as const,
    exchangeCarrier: 'TCS',
    exchangeTracking: 'TCS123',
    refundedMinor: 8900,
  },
};

/** Every step's email names the order, the lines and the order page, with the shopper's text escaped. */
describe('return step emails', () => {
  it.each(RETURN_STEPS)('%s', (step) => {
    const email = returnStepEmail(data, step);
    expect(email.subject).toContain('#1042');
    expect(email.subject).toContain('Lawn & Co');
    expect(email.text).toContain('Lawn Kurta (M) × 1 → L');
    expect(email.text).toContain('https://shop.example/order/o1?token=t');
    expect(email.html).not.toContain('<Khan>');
    expect(email.html).not.toContain('Worn <b>');
  });

  it('says what each owner step needs to say', () => {
    expect(returnStepEmail(data, 'approved').text).toContain('Send to 12 Canal Road, Lahore');
    expect(returnStepEmail(data, 'approved').text).toContain('We pay the return postage.');
    expect(returnStepEmail(data, 'declined').text).toContain('Reason: Worn <b>');
    expect(returnStepEmail(data, 'exchange_shipped').text).toContain('Tracking: TCS TCS123');
    expect(
      returnStepEmail({ ...data, ret: { ...data.ret, resolution: 'refund' } }, 'refunded').text,
    ).toContain('We refunded $89.00');
  });

  it('tells of an exchange’s price difference where it matters (decision 0039)', () => {
    const owed = (status: 'due' | 'collect_on_delivery' | 'paid', card: boolean) => ({
      ...data,
      ret: {
        ...data.ret,
        difference: { amountMinor: 1500, status, payOnline: card, cashOnDelivery: !card },
      },
    });
    expect(returnStepEmail(owed('due', true), 'requested').text).toContain(
      'Your replacement costs $15.00 more than what you bought. You can pay it from your order page once we approve your exchange.',
    );
    expect(returnStepEmail(owed('due', true), 'approved').text).toContain(
      'Please pay it from your order page.',
    );
    expect(returnStepEmail(owed('due', false), 'approved').text).toContain(
      'You pay it to the courier when the replacement is delivered.',
    );
    expect(returnStepEmail(owed('collect_on_delivery', false), 'exchange_shipped').text).toContain(
      'Please pay the courier $15.00, the price difference, when the replacement arrives.',
    );
    expect(returnStepEmail(owed('paid', true), 'difference_paid').text).toContain('we received $15.00');
    const back = {
      ...data,
      ret: {
        ...data.ret,
        difference: {
          amountMinor: -800,
          status: 'refunded' as const,
          payOnline: true,
          cashOnDelivery: false,
        },
      },
    };
    expect(returnStepEmail(back, 'requested').text).toContain('costs $8.00 less');
    expect(returnStepEmail(back, 'exchange_shipped').text).toContain(
      'We refunded $8.00, the price difference',
    );
    expect(returnStepEmail(back, 'refunded').text).toContain('the price difference of your exchange');
    // No difference: nothing said of one.
    expect(returnStepEmail(data, 'approved').text).not.toContain('difference');
  });
});
