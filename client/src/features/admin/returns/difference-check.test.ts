import {
  closeExchangeInput,
  recordDifferencePaidInput,
  refundDifferenceInput,
} from '@shared/return-admin-input';
import { describe, expect, it } from 'vitest';
import { zodFieldErrors } from '../../../lib/use-zod-form';
import { checkDifferencePayment } from './difference-check';

describe('recording how a price difference moved', () => {
  it('needs "paid via" only where the money moved by hand, and sends it trimmed', () => {
    expect(checkDifferencePayment({ paidVia: '  ', note: '' }, true)).toEqual({
      errors: { paidVia: 'Say how the money went back' },
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

  it('says what the server says, on the same fields', () => {
    const serverErrors = (
      schema: typeof refundDifferenceInput | typeof recordDifferencePaidInput | typeof closeExchangeInput,
      values: object,
    ) => {
      const result = schema.safeParse({ id: 'ret_1', carrier: 'UPS', trackingNumber: '1Z', ...values });
      return result.success ? {} : zodFieldErrors(result.error.issues);
    };
    const cases = [
      { paidVia: '', note: '' },
      { paidVia: '  ', note: 'x' },
      { paidVia: 'cash', note: '' },
      { paidVia: 'x'.repeat(101), note: '' },
      { paidVia: 'cash', note: 'y'.repeat(1001) },
    ];
    for (const values of cases) {
      const label = JSON.stringify(values);
      expect(checkDifferencePayment(values, true, 'payment').errors, label).toEqual(
        serverErrors(recordDifferencePaidInput, values),
      );
      expect(checkDifferencePayment(values, true).errors, label).toEqual(
        serverErrors(refundDifferenceInput, values),
      );
      // Closing an exchange that refunds a manual order's difference takes the same two fields.
      expect(checkDifferencePayment(values, true).errors, label).toEqual(
        serverErrors(closeExchangeInput, values),
      );
    }
  });
});
