/** One thing the browser's check found wrong, keyed by the field's path as the server's schema names it. */
export type Issue = { path: string[]; message: string };

type ShopperDetails = {
  email: string;
  name: string;
  address: { line1: string; line2: string; city: string; postalCode: string };
};

/** A required text: empty or too long, said as the server's addressText says it. */
export function requiredText(
  issues: Issue[],
  path: string[],
  value: string,
  label: string,
  max: number,
): void {
  const text = value.trim();
  if (text === '') issues.push({ path, message: `${label} is required` });
  else if (text.length > max)
    issues.push({ path, message: `${label} is too long (at most ${max} characters)` });
}

/**
 * What the demo payment form and the store's own details form both ask, checked in the browser as the
 * server's schemas check it (testPaymentInput, offlineCustomerInput): the email, the name and the address's
 * lines. The postal code is required on the demo page only (Stripe's page asks for one).
 */
export function shopperDetailsIssues(v: ShopperDetails, postalCodeRequired: boolean): Issue[] {
  const issues: Issue[] = [];
  const optionalText = (path: string[], value: string, label: string, max: number) => {
    if (value.trim().length > max)
      issues.push({ path, message: `${label} is too long (at most ${max} characters)` });
  };
  const email = v.email.trim();
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    issues.push({ path: ['email'], message: 'Enter a valid email address' });
  requiredText(issues, ['name'], v.name, 'Name', 120);
  requiredText(issues, ['address', 'line1'], v.address.line1, 'Address', 200);
  optionalText(['address', 'line2'], v.address.line2, 'Address line 2', 200);
  requiredText(issues, ['address', 'city'], v.address.city, 'City', 100);
  if (postalCodeRequired)
    requiredText(issues, ['address', 'postalCode'], v.address.postalCode, 'Postal code', 20);
  else optionalText(['address', 'postalCode'], v.address.postalCode, 'Postal code', 20);
  return issues;
}
