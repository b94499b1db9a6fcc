import { describe, expect, it } from 'vitest';
import { checkDifferencePayment } from './difference-check';

describe('recording how a price difference moved', () => {
  it('needs "paid via" only where the money moved by hand, and sends it trimmed', () => {
    expect(checkDifferencePayment({ paidVia: '  ', note: '' }, true)).toEqual({
      errors: { paidVia: 'Say how the money moved' },
      input: null,
    });
    expect(checkDifferencePayment({ paidVia: ' bank transfer ', note: ' ref 12 ' }, true).input).toEqual({
      paidVia: 'bank transfer',
      note: 'ref 12',
    });
    // A card refund goes back to the card: nothing typed in a hidden field is sent.
    expect(checkDifferencePayment({ paidVia: 'cash', note: '' }, false).input).toEqual({});
  });

  it('bounds both fields', () => {
    const long = checkDifferencePayment({ paidVia: 'x'.repeat(101), note: 'y'.repeat(1001) }, true);
    expect(long.input).toBeNull();
    expect(long.errors).toEqual({ paidVia: 'At most 100 characters', note: 'At most 1000 characters' });
  });
});
