import type { FormCheck } from '../../lib/use-zod-form';
import { shopperDetailsIssues } from './shopper-details-check';

export type DemoPaymentValues = {
  email: string;
  name: string;
  address: { line1: string; line2: string; city: string; postalCode: string; country: string };
};

/**
 * The demo payment form's checks in the browser, written out rather than with the server's Zod schema
 * (testPaymentInput), which then stays out of the storefront's code. The server checks again with the
 * schema; its messages land on the same fields.
 */
export const demoPaymentCheck: FormCheck<DemoPaymentValues> = {
  safeParse(input: unknown) {
    const v = input as DemoPaymentValues;
    const issues = shopperDetailsIssues(v, true);
    if (!/^[A-Za-z]{2}$/.test(v.address.country.trim()))
      issues.push({ path: ['address', 'country'], message: 'Choose a country' });
    return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data: v };
  },
};
