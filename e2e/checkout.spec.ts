import { signIn } from './support/admin';
import { payWithDemoForm } from './support/demo-payment';
import { expect, type Page, test } from './support/test';

const money = (text: string | null) => Number((text ?? '').replace(/[^0-9.]/g, ''));

async function openProduct(page: Page, index: number) {
  await page.goto('/');
  const card = page.getByTestId('product-card').nth(index);
  const title = (await card.getByRole('heading').textContent()) ?? '';
  await card.getByRole('heading').getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  return title;
}

async function addSize(page: Page, size: string) {
  const detail = page.getByTestId('product-detail');
  await detail
    .locator('fieldset label')
    .filter({ hasText: new RegExp(`^${size}$`) })
    .click();
  await detail.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Added to cart!' }).first()).toBeVisible();
}

test('a shopper fills the cart, changes it, keeps it across a reload, pays in demo mode and the admin sees the order', async ({
  page,
}) => {
  const first = await openProduct(page, 0);
  const detail = page.getByTestId('product-detail');
  const sizes = await detail.locator('fieldset label').allTextContents();
  await addSize(page, sizes[0] ?? 'S');
  await addSize(page, sizes[1] ?? 'M');
  await openProduct(page, 1);
  const secondSizes = await page.getByTestId('product-detail').locator('fieldset label').allTextContents();
  await addSize(page, secondSizes[0] ?? 'M');
  await expect(page.getByRole('button', { name: 'Cart, 3 items' })).toBeVisible();

  // The dropdown lists the three lines with their totals.
  await page.getByRole('button', { name: 'Cart, 3 items' }).click();
  const panel = page.getByRole('region', { name: 'Cart' });
  await expect(panel.getByTestId('cart-line')).toHaveCount(3);
  await expect(panel.getByTestId('cart-total')).toHaveText(/^\$/);
  await panel.getByRole('link', { name: 'Proceed to Checkout' }).click();

  await expect(page.getByRole('heading', { name: 'Review Your Order' })).toBeVisible();
  const lines = page.getByTestId('checkout-line');
  await expect(lines).toHaveCount(3);
  await expect(page.getByTestId('checkout-total')).toHaveText(/^\$/);
  const before = money(await page.getByTestId('checkout-total').textContent());
  const unit = money(await lines.first().getByTestId('line-total').textContent());
  await lines.first().getByRole('combobox').selectOption('2');
  await expect
    .poll(async () => money(await page.getByTestId('checkout-total').textContent()))
    .toBeCloseTo(before + unit, 2);
  await lines
    .nth(2)
    .getByRole('button', { name: /^Remove / })
    .click();
  await expect(lines).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Cart, 3 items' })).toBeVisible(); // 2 + 1

  await page.reload();
  await expect(page.getByTestId('checkout-line')).toHaveCount(2);
  await expect(lines.first()).toContainText(first);

  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page).toHaveURL(/\/testpayment\?session_id=demo_/);
  await expect(page.getByRole('heading', { name: 'Test Payment Processing' })).toBeVisible();
  await expect(page.getByText('no money moves')).toBeVisible();
  await payWithDemoForm(page);
  await expect(
    page.getByText('Thank you for your purchase. You will receive an email confirmation shortly.'),
  ).toBeVisible();
  const orderNumber = ((await page.getByTestId('order-number').textContent()) ?? '').replace('Order ', '');
  expect(orderNumber).toMatch(/^#\d+$/);
  await expect(page.getByRole('button', { name: 'Cart, 0 items' })).toBeVisible();

  // The operator sees it, paid.
  await signIn(page);
  await page.getByRole('tab', { name: 'Orders' }).click();
  const row = page.getByTestId('order-row').filter({ hasText: orderNumber });
  await expect(row).toContainText('Paid');
  await row.getByRole('button', { name: orderNumber }).click();
  const dialog = page.getByRole('dialog', { name: `Order ${orderNumber}` });
  await expect(dialog).toContainText(first);
});

test('cancelling the payment keeps the cart and offers to try again', async ({ page }) => {
  await openProduct(page, 2);
  const sizes = await page.getByTestId('product-detail').locator('fieldset label').allTextContents();
  await addSize(page, sizes[0] ?? 'M');
  await page.goto('/checkout/cancel');
  await expect(page.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible();
  await expect(page.getByText('Your payment was cancelled. No charges were made.')).toBeVisible();
  await page.getByRole('link', { name: 'Try Again' }).click();
  await expect(page.getByTestId('checkout-line')).toHaveCount(1);
  await page.goto('/canceled');
  await expect(
    page.getByText('Your payment was canceled. No charges were made to your account.'),
  ).toBeVisible();
});

test('an empty cart cannot check out', async ({ page }) => {
  await page.goto('/checkout');
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Your cart is empty. Please add items before checkout.' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test('Buy Now pays for one item straight away', async ({ page }) => {
  await openProduct(page, 3);
  const detail = page.getByTestId('product-detail');
  await expect(detail.getByRole('button', { name: 'Buy Now' })).toBeDisabled();
  await detail.locator('fieldset label').first().click();
  await detail.getByRole('button', { name: 'Buy Now' }).click();
  await payWithDemoForm(page);
  await expect(page.getByTestId('order-number')).toHaveText(/^Order #\d+$/);
});
