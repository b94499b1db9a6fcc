import { tabTo } from './keyboard';
import { expect, type Page } from './test';

/** Who pays on the demo payment form, and where the parcel goes. */
export type DemoShopper = {
  email: string;
  name: string;
  line1: string;
  line2?: string;
  city: string;
  postalCode: string;
  /**
   * A two-letter code of a country the store ships to (the demo store ships to US, CA, GB, AU, PK, AE);
   * Pakistan when not given (the form chooses none).
   */
  country?: string;
};

export const demoShopper: DemoShopper = {
  email: 'ayesha.shopper@shop.example',
  name: 'Ayesha Khan',
  line1: '12 Mall Road',
  line2: 'Flat 3',
  city: 'Lahore',
  postalCode: '54000',
  country: 'PK',
};

/** The demo payment form of /testpayment, once the page has it. */
export function demoPaymentForm(page: Page) {
  return page.getByRole('form', { name: 'Demo payment' });
}

/**
 * On /testpayment: fills the demo payment form (who pays, where it ships), completes the payment and waits
 * for the success page.
 */
export async function payWithDemoForm(page: Page, shopper: DemoShopper = demoShopper): Promise<void> {
  await expect(page).toHaveURL(/\/testpayment\?session_id=demo_/);
  await expect(page.getByRole('heading', { name: 'Test Payment Processing' })).toBeVisible();
  const form = demoPaymentForm(page);
  await form.getByLabel('Email').fill(shopper.email);
  await form.getByLabel('Full name').fill(shopper.name);
  await form.getByLabel('Address line 1').fill(shopper.line1);
  if (shopper.line2) await form.getByLabel('Address line 2 (optional)').fill(shopper.line2);
  await form.getByLabel('City').fill(shopper.city);
  await form.getByLabel('Postal code').fill(shopper.postalCode);
  await form.getByLabel('Country').selectOption(shopper.country ?? 'PK');
  await form.getByRole('button', { name: 'Complete test payment' }).click();
  await expect(page).toHaveURL(/\/checkout\/success\?session_id=demo_/);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
}

/**
 * The same with the keyboard alone: Tab to each field (every stop showing its focus), type (the country by
 * its name, as a closed select takes typing), and press Enter on the button.
 */
export async function payWithDemoFormByKeyboard(
  page: Page,
  shopper: DemoShopper = demoShopper,
): Promise<void> {
  await expect(page).toHaveURL(/\/testpayment\?session_id=demo_/);
  const form = demoPaymentForm(page);
  await expect(form.getByLabel('Country')).toBeEnabled();
  const fields: Array<[string, string | undefined]> = [
    ['Email', shopper.email],
    ['Full name', shopper.name],
    ['Address line 1', shopper.line1],
    ['Address line 2 (optional)', shopper.line2],
    ['City', shopper.city],
    ['Postal code', shopper.postalCode],
  ];
  for (const [label, value] of fields) {
    if (!value) continue;
    const field = form.getByLabel(label);
    await tabTo(page, field);
    await page.keyboard.type(value);
    await expect(field).toHaveValue(value);
  }
  const country = shopper.country ?? 'PK';
  const countrySelect = form.getByLabel('Country');
  await tabTo(page, countrySelect);
  await page.keyboard.type(new Intl.DisplayNames(['en'], { type: 'region' }).of(country) ?? country);
  await expect(countrySelect).toHaveValue(country);
  await tabTo(page, form.getByRole('button', { name: 'Complete test payment' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/checkout\/success\?session_id=demo_/);
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
}
