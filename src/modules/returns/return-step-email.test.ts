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
});
