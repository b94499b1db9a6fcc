import { testPaymentInput } from '@shared/checkout-input';
import { describe, expect, it } from 'vitest';
import { zodFieldErrors } from '../../lib/use-zod-form';
import { type DemoPaymentValues, demoPaymentCheck } from './demo-payment-check';

const good: DemoPaymentValues = {
  email: 'ayesha@shop.example',
  name: 'Ayesha Khan',
  address: { line1: '12 Mall Road', line2: '', city: 'Lahore', postalCode: '54000', country: 'PK' },
};

const errorsOf = (values: DemoPaymentValues) => {
  const result = demoPaymentCheck.safeParse(values);
  return result.success ? {} : zodFieldErrors(result.error.issues);
};

const serverErrorsOf = (values: DemoPaymentValues) => {
  const result = testPaymentInput.safeParse({ sessionId: 'demo_x', ...values });
  return result.success ? {} : zodFieldErrors(result.error.issues);
};

describe('the demo payment form, checked in the browser', () => {
  it('says what the server says, on the same fields, without Zod in the page', () => {
    const cases: DemoPaymentValues[] = [
      good,
      { ...good, email: 'not-an-email' },
      { ...good, name: '   ' },
      { ...good, name: 'x'.repeat(121) },
      { ...good, address: { ...good.address, line1: '' } },
      { ...good, address: { ...good.address, line2: 'y'.repeat(201) } },
      { ...good, address: { ...good.address, city: '' } },
      { ...good, address: { ...good.address, postalCode: '' } },
      { ...good, address: { ...good.address, postalCode: 'z'.repeat(21) } },
      { ...good, address: { ...good.address, country: '' } },
      { email: '', name: '', address: { line1: '', line2: '', city: '', postalCode: '', country: '' } },
    ];
    for (const values of cases)
      expect(errorsOf(values), JSON.stringify(values)).toEqual(serverErrorsOf(values));
  });
});
