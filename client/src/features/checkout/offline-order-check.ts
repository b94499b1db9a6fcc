import type { FormCheck } from '../../lib/use-zod-form';

/** What the shopper types for a cash-on-delivery or bank-transfer order; the country is chosen above it. */
export type OfflineOrderValues = {
  email: string;
  name: string;
  phone: string;
  address: { line1: string; line2: string; city: string; postalCode: string };
};

type Issue = { path: string[]; message: string };

/** The phone's check for the chosen country, once its rules have loaded (phone-format.ts); null until then. */
export type PhoneRule = { valid: (phone: string) => boolean; message: string } | null;

/**
 * The details form's checks in the browser, written out rather than with the server's Zod schema
 * (offlineCustomerInput in src/shared/payment-methods.ts), which then stays out of the storefront's code. The
 * server checks again (and the phone for the shipping country always); its messages land on the same fields.
 */
export function offlineOrderCheck(phoneRule: PhoneRule): FormCheck<OfflineOrderValues> {
  return {
    safeParse(input: unknown) {
      const v = input as OfflineOrderValues;
      const issues: Issue[] = [];
      const required = (path: string[], value: string, label: string, max: number) => {
        const text = value.trim();
        if (text === '') issues.push({ path, message: `${label} is required` });
        else if (text.length > max)
          issues.push({ path, message: `${label} is too long (at most ${max} characters)` });
      };
      const optional = (path: string[], value: string, label: string, max: number) => {
        if (value.trim().length > max)
          issues.push({ path, message: `${label} is too long (at most ${max} characters)` });
      };
      const email = v.email.trim();
      if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
        issues.push({ path: ['email'], message: 'Enter a valid email address' });
      required(['name'], v.name, 'Name', 120);
      required(['phone'], v.phone, 'Phone number', 30);
      const phone = v.phone.trim();
      if (phone !== '' && phone.length <= 30) {
        // Digits, spaces and the usual separators; the country's own rule when it has loaded.
        const digits = phone.replace(/\D/g, '').length;
        if (!/^\+?[\d\s().-]+$/.test(phone) || digits < 6 || (phoneRule && !phoneRule.valid(phone)))
          issues.push({ path: ['phone'], message: phoneRule?.message ?? 'Enter a valid phone number' });
      }
      required(['address', 'line1'], v.address.line1, 'Address', 200);
      optional(['address', 'line2'], v.address.line2, 'Address line 2', 200);
      required(['address', 'city'], v.address.city, 'City', 100);
      optional(['address', 'postalCode'], v.address.postalCode, 'Postal code', 20);
      return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data: v };
    },
  };
}
