import type { FormCheck } from '../../lib/use-zod-form';

export type DemoPaymentValues = {
  email: string;
  name: string;
  address: { line1: string; line2: string; city: string; postalCode: string; country: string };
};

type Issue = { path: string[]; message: string };

/**
 * The demo payment form's checks in the browser, written out rather than with the server's Zod schema
 * (testPaymentInput), which then stays out of the storefront's code. The server checks again with the
 * schema; its messages land on the same fields.
 */
export const demoPaymentCheck: FormCheck<DemoPaymentValues> = {
  safeParse(input: unknown) {
    const v = input as DemoPaymentValues;
    const issues: Issue[] = [];
    const required = (path: string[], value: string, label: string, max: number) => {
      const text = value.trim();
      if (text === '') issues.push({ path, message: `${label} is required` });
      else if (text.length > max)
        issues.push({ path, message: `${label} is too long (at most ${max} characters)` });
    };
    const email = v.email.trim();
    if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
      issues.push({ path: ['email'], message: 'Enter a valid email address' });
    required(['name'], v.name, 'Name', 120);
    required(['address', 'line1'], v.address.line1, 'Address', 200);
    if (v.address.line2.trim().length > 200)
      issues.push({
        path: ['address', 'line2'],
        message: 'Address line 2 is too long (at most 200 characters)',
      });
    required(['address', 'city'], v.address.city, 'City', 100);
    required(['address', 'postalCode'], v.address.postalCode, 'Postal code', 20);
    if (!/^[A-Za-z]{2}$/.test(v.address.country.trim()))
      issues.push({ path: ['address', 'country'], message: 'Choose a country' });
    return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data: v };
  },
};
