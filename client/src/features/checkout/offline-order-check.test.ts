import { offlineCustomerInput } from '@shared/payment-methods';
import { describe, expect, it } from 'vitest';
import { zodFieldErrors } from '../../lib/use-zod-form';
import { type OfflineOrderValues, offlineOrderCheck } from './offline-order-check';
import { phoneFormat } from './phone-format';

const good: OfflineOrderValues = {
  email: 'ayesha@shop.example',
  name: 'Ayesha Khan',
  phone: '0300 1234567',
  address: { line1: '12 Mall Road', line2: '', city: 'Lahore', postalCode: '' },
};

const errorsOf = (values: OfflineOrderValues, check = offlineOrderCheck(null)) => {
  const result = check.safeParse(values);
  return result.success ? {} : zodFieldErrors(result.error.issues);
};

/** The server's schema over the same values (the country is the one chosen above the form). */
const serverErrorsOf = (values: OfflineOrderValues) => {
  const result = offlineCustomerInput.safeParse({ ...values, address: { ...values.address, country: 'PK' } });
  return result.success ? {} : zodFieldErrors(result.error.issues);
};

describe('the cash-on-delivery details form, checked in the browser', () => {
  it('says what the server says, on the same fields, without Zod in the page', () => {
    const cases: OfflineOrderValues[] = [
      good,
      { ...good, email: 'not-an-email' },
      { ...good, name: '   ' },
      { ...good, name: 'x'.repeat(121) },
      { ...good, phone: '' },
      { ...good, address: { ...good.address, line1: '' } },
      { ...good, address: { ...good.address, line2: 'y'.repeat(201) } },
      { ...good, address: { ...good.address, city: '' } },
      { ...good, address: { ...good.address, postalCode: 'z'.repeat(21) } },
      { email: '', name: '', phone: '', address: { line1: '', line2: '', city: '', postalCode: '' } },
    ];
    for (const values of cases)
      expect(errorsOf(values), JSON.stringify(values)).toEqual(serverErrorsOf(values));
  });

  it("checks the phone by the shipping country's rules once they have loaded", () => {
    const pakistan = phoneFormat('PK');
    expect(pakistan.example).toBe('0301 2345678');
    expect(pakistan.valid('0300 1234567')).toBe(true);
    expect(pakistan.valid('+92 300 1234567')).toBe(true);
    expect(pakistan.valid('0300 12345')).toBe(false);
    const check = offlineOrderCheck({
      valid: pakistan.valid,
      message: 'Enter a phone number valid in Pakistan',
    });
    expect(errorsOf(good, check)).toEqual({});
    expect(errorsOf({ ...good, phone: '0300 12345' }, check)).toEqual({
      phone: 'Enter a phone number valid in Pakistan',
    });
    // Before the rules arrive only the obvious is refused; the server checks the rest.
    expect(errorsOf({ ...good, phone: '0300 12345' })).toEqual({});
    expect(errorsOf({ ...good, phone: 'call me' })).toEqual({ phone: 'Enter a valid phone number' });
  });
});
