import type { FormCheck } from '../../lib/use-zod-form';
import { requiredText, shopperDetailsIssues } from './shopper-details-check';

/** What the shopper types for a cash-on-delivery or bank-transfer order; the country is chosen above it. */
export type OfflineOrderValues = {
  email: string;
  name: string;
  phone: string;
  address: { line1: string; line2: string; city: string; postalCode: string };
};

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
      const issues = shopperDetailsIssues(v, false);
      requiredText(issues, ['phone'], v.phone, 'Phone number', 30);
      const phone = v.phone.trim();
      if (phone !== '' && phone.length <= 30) {
        // Digits, spaces and the usual separators; the country's own rule when it has loaded.
        const digits = phone.replace(/\D/g, '').length;
        if (!/^\+?[\d\s().-]+$/.test(phone) || digits < 6 || (phoneRule && !phoneRule.valid(phone)))
          issues.push({ path: ['phone'], message: phoneRule?.message ?? 'Enter a valid phone number' });
      }
      return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data: v };
    },
  };
}
