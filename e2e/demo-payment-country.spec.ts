import { demoPaymentForm, demoShopper } from './support/demo-payment';
import { expect, test } from './support/test';

test.describe.configure({ timeout: 90_000 });

test('the demo payment form chooses no country for the shopper: its required select starts empty', async ({
  page,
}) => {
  await page.goto('/');
  const href = await page
    .getByTestId('product-card')
    .first()
    .getByRole('heading')
    .getByRole('link')
    .getAttribute('href');
  await page.goto(href ?? '/');
  const detail = page.getByTestId('product-detail');
  await detail.locator('fieldset label').first().click();
  await detail.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
  await page.goto('/checkout');
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page).toHaveURL(/\/testpayment\?session_id=demo_/);

  const form = demoPaymentForm(page);
  const country = form.getByLabel('Country');
  // Once the countries this store ships to are in, the first choice is still the empty one.
  await expect(country).toBeEnabled();
  await expect(country.locator('option').nth(1)).toBeAttached();
  const first = country.locator('option').first();
  await expect(first).toHaveText('Choose a country');
  await expect(first).toHaveAttribute('value', '');
  await expect(country).toHaveValue('');
  await expect(country).toHaveJSProperty('required', true);
  // The browser's own `required` check sees it missing too.
  expect(await country.evaluate((el: HTMLSelectElement) => el.validity.valueMissing)).toBe(true);

  // Sent without one, the form says what is missing and stays on the page.
  await form.getByLabel('Email').fill(demoShopper.email);
  await form.getByLabel('Full name').fill(demoShopper.name);
  await form.getByLabel('Address line 1').fill(demoShopper.line1);
  await form.getByLabel('City').fill(demoShopper.city);
  await form.getByLabel('Postal code').fill(demoShopper.postalCode);
  await form.getByRole('button', { name: 'Complete test payment' }).click();
  await expect(country).toHaveAttribute('aria-invalid', 'true');
  await expect(country).toHaveAccessibleDescription('Choose a country');
  await expect(country).toBeFocused();
  await expect(page).toHaveURL(/\/testpayment\?session_id=demo_/);

  // With one chosen, the payment goes through.
  await country.selectOption('PK');
  await form.getByRole('button', { name: 'Complete test payment' }).click();
  await expect(page).toHaveURL(/\/checkout\/success\?session_id=demo_/);
});
