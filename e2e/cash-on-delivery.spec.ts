import type { Page } from '@playwright/test';
import { signIn } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { queryStore } from './support/store-database';
import { expect, test } from './support/test';

// Both tests change the store's payment methods: one after the other, never side by side.
test.describe.configure({ mode: 'serial', timeout: 120_000 });
// A shopper in Pakistan: the server renders the order page without knowing their time zone (UTC here).
test.use({ timezoneId: 'Asia/Karachi' });

const money = (text: string | null) => Number((text ?? '').replace(/[^0-9.]/g, ''));

/** The owner's payment method settings as the admin's form sends them (amounts typed, decision 0038). */
type MethodsInput = Record<string, unknown> & {
  cashOnDelivery: Record<string, unknown>;
};

/** The owner's own API, from the signed-in admin page (its cookie, its origin), as the admin's forms call it. */
async function adminCall<T>(page: Page, path: string, input?: unknown): Promise<T> {
  const origin = new URL(page.url()).origin;
  const res =
    input === undefined
      ? await page.request.get(`/api/trpc/${path}`, { headers: { origin } })
      : await page.request.post(`/api/trpc/${path}`, { data: input, headers: { origin } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

/** The stored settings (minor units) as the form's input (amounts in major units of a two-decimal currency). */
function asInput(stored: {
  cashOnDelivery: { feeMinor: number; maxOrderMinor: number | null } & Record<string, unknown>;
}): MethodsInput {
  const { feeMinor, maxOrderMinor, ...cod } = stored.cashOnDelivery;
  return {
    ...stored,
    cashOnDelivery: {
      ...cod,
      fee: (feeMinor / 100).toFixed(2),
      maxOrder: maxOrderMinor === null ? '' : (maxOrderMinor / 100).toFixed(2),
    },
  };
}

/** The order's step as its page's own query answers it. */
async function stepOf(page: Page, orderPath: string): Promise<string> {
  const url = new URL(orderPath, 'http://store.invalid');
  const input = {
    id: decodeURIComponent(url.pathname.split('/')[2] ?? ''),
    token: url.searchParams.get('token'),
  };
  const res = await page.request.get(
    `/api/trpc/orderPage.view?input=${encodeURIComponent(JSON.stringify(input))}`,
  );
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { result: { data: { step: string } } }).result.data.step;
}

/** Two sizes of the first product in the cart, as a shopper adds them; then the checkout page. */
async function twoItemsToCheckout(page: Page): Promise<void> {
  await page.goto('/');
  const card = page.getByTestId('product-card').first();
  await card.getByRole('heading').getByRole('link').click();
  const detail = page.getByTestId('product-detail');
  for (const [index, count] of [
    [0, '1 item'],
    [1, '2 items'],
  ] as const) {
    await detail.locator('fieldset label').nth(index).click();
    await detail.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page.getByRole('button', { name: `Cart, ${count}` })).toBeVisible();
  }
  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-line')).toHaveCount(2);
}

/** Who orders, and where to: Lahore, with a Pakistani mobile number. */
async function fillDetails(page: Page, formName: string): Promise<void> {
  const form = page.getByRole('form', { name: formName });
  const stamp = Date.now();
  await form.getByLabel('Email').fill(`cod.${stamp}@shop.example`);
  await form.getByLabel('Full name').fill('Ayesha Khan');
  await form.getByLabel('Phone number').fill('0300 1234567');
  await form.getByLabel('Address line 1').fill(`${stamp % 1000} Mall Road`);
  await form.getByLabel('City').fill('Lahore');
  await form.getByLabel('Postal code (optional)').fill('54000');
}

test('cash on delivery to Lahore: the fee before placing, the order page, confirmed by the shopper (not by opening the link)', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  await signIn(page);
  type Stored = Parameters<typeof asInput>[0];
  const before = await adminCall<Stored>(page, 'admin.settings.paymentMethods');
  const on = asInput(before);
  await adminCall(page, 'admin.settings.updatePaymentMethods', {
    ...on,
    cashOnDelivery: { ...on.cashOnDelivery, enabled: true, countries: ['PK'], fee: '2.00', maxOrder: '' },
  });
  try {
    await twoItemsToCheckout(page);
    await expect(page.getByRole('heading', { name: 'How would you like to pay?' })).toBeVisible();
    await page.getByLabel('Deliver to').selectOption('PK');
    const methods = page.getByRole('group', { name: 'Payment method' });
    await methods.getByRole('radio', { name: 'Cash on delivery' }).check();
    // The store's money reads "$2" for a whole amount.
    await expect(page.getByTestId('payment-fee')).toHaveText(/^\$2(\.00)?$/);
    const itemsTotal = money(await page.getByTestId('checkout-total').textContent());
    const shippingLine = page.getByTestId('payment-shipping');
    const shipping = (await shippingLine.count()) > 0 ? money(await shippingLine.textContent()) : 0;
    const totalText = (await page.getByTestId('payment-total').textContent()) ?? '';
    const total = money(totalText);
    expect(total).toBeCloseTo(itemsTotal + shipping + 2, 2);

    const form = page.getByRole('form', { name: 'Your details for cash on delivery' });
    await expect(form.getByText('like 0301 2345678')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expectNoAxeViolations(page, 'checkout with cash on delivery chosen');

    await fillDetails(page, 'Your details for cash on delivery');
    await form.getByRole('button', { name: 'Place order' }).click();

    await expect(page).toHaveURL(/\/order\/[^/?]+\?token=.+/);
    const orderPath = new URL(page.url()).pathname + new URL(page.url()).search;
    await expect(page.getByRole('heading', { level: 1, name: /^Order #\d+$/ })).toBeVisible();
    await expect(page.getByTestId('order-stage')).toHaveText('Awaiting confirmation');
    await expect(page.getByTestId('order-method-fee')).toContainText(/\$2(\.00)?$/);
    await expect(page.getByTestId('order-deadline')).toBeVisible();
    await expect(page.getByTestId('order-line')).toHaveCount(2);
    await expect(page.getByRole('button', { name: 'Cart, 0 items' })).toBeVisible();

    // The email's link asks first: opening it (as a mail scanner does) confirms nothing.
    const orderId = decodeURIComponent(orderPath.split('/')[2]?.split('?')[0] ?? '');
    const [mail] = await queryStore<{ text_body: string }>(
      'SELECT text_body FROM email_outbox WHERE order_id = ? ORDER BY created_at',
      [orderId],
    );
    const link = /https?:\/\/\S+\/order\/\S+\/confirm\?token=[\w-]+/.exec(mail?.text_body ?? '')?.[0];
    expect(link, mail?.text_body).toBeTruthy();
    const confirmPath = new URL(link ?? '').pathname + new URL(link ?? '').search;
    const opened = await page.goto(confirmPath);
    expect(opened?.status()).toBe(200);
    await expect(page.getByRole('button', { name: 'Confirm my order' })).toBeVisible();
    expect(await stepOf(page, orderPath)).toBe('awaiting_confirmation');

    // The shopper confirms on the order page, which the server rendered: the browser takes it over as it is
    // (its deadline said in UTC until then), with no hydration mismatch (React says so on the console).
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(orderPath);
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
    await page.getByRole('button', { name: 'Confirm my order' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'your order is confirmed' })).toBeVisible();
    await expect(page.getByTestId('order-stage')).toHaveText('Confirmed, cash due');
    await expect(page.getByTestId('cash-due')).toContainText(totalText);
    await expect(page.getByRole('button', { name: 'Confirm my order' })).toHaveCount(0);
    expect(await stepOf(page, orderPath)).toBe('confirmed');

    // The email's link, pressed afterwards, says so and changes nothing.
    await page.goto(confirmPath);
    await page.getByRole('button', { name: 'Confirm my order' }).click();
    const answer = page.getByRole('main').getByRole('status');
    await expect(answer).toContainText('Confirmed');
    await expect(answer).toContainText('already confirmed');
  } finally {
    await adminCall(page, 'admin.settings.updatePaymentMethods', asInput(before));
  }
});

test('bank transfer to Lahore: no fee, and the order page gives the account, the amount and the reference', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  await signIn(page);
  type Stored = Parameters<typeof asInput>[0];
  const before = await adminCall<Stored>(page, 'admin.settings.paymentMethods');
  const on = asInput(before);
  const account = 'Meezan Bank\nAccount: Sitara Stitched\nIBAN PK36 MEZN 0001 2345 6789 0123';
  await adminCall(page, 'admin.settings.updatePaymentMethods', {
    ...on,
    bankTransfer: { enabled: true, countries: ['PK'], accountDetails: account, holdDays: 3 },
  });
  try {
    await twoItemsToCheckout(page);
    await page.getByLabel('Deliver to').selectOption('PK');
    await page
      .getByRole('group', { name: 'Payment method' })
      .getByRole('radio', { name: 'Bank transfer' })
      .check();
    await expect(page.getByTestId('payment-fee')).toHaveCount(0);
    const itemsTotal = money(await page.getByTestId('checkout-total').textContent());
    const shippingLine = page.getByTestId('payment-shipping');
    const shipping = (await shippingLine.count()) > 0 ? money(await shippingLine.textContent()) : 0;
    const totalText = (await page.getByTestId('payment-total').textContent()) ?? '';
    expect(money(totalText)).toBeCloseTo(itemsTotal + shipping, 2);
    await fillDetails(page, 'Your details for bank transfer');
    await page.getByRole('button', { name: 'Place order' }).click();

    await expect(page).toHaveURL(/\/order\/[^/?]+\?token=.+/);
    const number = (await page.getByRole('heading', { level: 1 }).textContent())?.replace('Order #', '');
    await expect(page.getByTestId('order-stage')).toHaveText('Awaiting transfer');
    await expect(page.getByTestId('transfer-amount')).toHaveText(totalText);
    await expect(page.getByTestId('transfer-reference')).toHaveText(`Order ${number}`);
    await expect(page.getByTestId('bank-details')).toContainText('IBAN PK36 MEZN 0001 2345 6789 0123');
    await expect(page.getByTestId('order-method-fee')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Confirm my order' })).toHaveCount(0);
    // The deadline set at placing: the stock is held until then.
    await expect(page.getByTestId('order-payment')).toContainText('We hold your items until');
  } finally {
    await adminCall(page, 'admin.settings.updatePaymentMethods', asInput(before));
  }
});
