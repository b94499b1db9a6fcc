import { signIn } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { demoPaymentForm, demoShopper, payWithDemoForm } from './support/demo-payment';
import { expect, type Page, test } from './support/test';

// Axe walks every node of the page; on a busy 2-core machine one run can take many seconds.
test.describe.configure({ timeout: 120_000 });

/** Waits until the page has its data and no placeholder is left, so axe sees what a person would. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.skeleton:not(.card-picture-skeleton):visible')).toHaveCount(0);
}

/** Two sizes of one product in the cart, so the order has two lines and one of them can be refunded. */
async function cartWithTwoSizes(page: Page): Promise<string> {
  await page.goto('/');
  const card = page.getByTestId('product-card').first();
  const title = (await card.getByRole('heading').textContent()) ?? '';
  await card.getByRole('heading').getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  const detail = page.getByTestId('product-detail');
  const sizes = detail.locator('fieldset label');
  expect(await sizes.count()).toBeGreaterThanOrEqual(2);
  for (const index of [0, 1]) {
    await sizes.nth(index).click();
    await detail.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Added to cart!' }).first()).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Cart, 2 items' })).toBeVisible();
  return title;
}

test('after the payment: the shopper follows the order while the admin ships it, refunds a line and prints the slip', async ({
  page,
}) => {
  const title = await cartWithTwoSizes(page);
  await page.goto('/checkout');
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();

  // The demo payment form says plainly that it is a demo, and passes axe.
  await expect(page).toHaveURL(/\/testpayment\?session_id=demo_/);
  await expect(page.getByText('Demo payment — no card is charged and no money moves')).toBeVisible();
  await expect(demoPaymentForm(page).getByLabel('Country')).toBeEnabled();
  await settle(page);
  await expectNoAxeViolations(page, 'the demo payment form');
  await payWithDemoForm(page);

  // The success page leads to the order's own page and says the confirmation email is coming.
  await expect(page.getByText('A confirmation email is on its way')).toBeVisible();
  const number = ((await page.getByTestId('order-number').textContent()) ?? '').replace('Order ', '');
  expect(number).toMatch(/^#\d+$/);
  await page.getByRole('link', { name: 'View your order' }).click();
  await expect(page).toHaveURL(/\/order\/[^/?]+\?token=.+/);
  const orderPageUrl = page.url();
  const orderId = decodeURIComponent(new URL(orderPageUrl).pathname.split('/')[2] ?? '');

  // The order page: paid, its two lines, where it ships; out of search engines.
  await expect(page.getByRole('heading', { level: 1, name: `Order ${number}` })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^Order ${number} · `));
  const progress = page.getByRole('list', { name: 'Order progress' });
  await expect(progress.locator('[aria-current="step"]')).toContainText('Paid');
  await expect(page.getByTestId('order-line')).toHaveCount(2);
  await expect(page.getByTestId('order-line').first()).toContainText(title);
  await expect(page.locator('address')).toContainText(demoShopper.city);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await settle(page);
  await expectNoAxeViolations(page, 'the order page');

  // A wrong key shows nothing of the order.
  await page.goto(`/order/${encodeURIComponent(orderId)}?token=not-the-token`);
  await expect(page.getByRole('heading', { level: 1, name: 'Order not found' })).toBeVisible();
  await expect(page.getByText(title)).toHaveCount(0);

  // The admin opens the order.
  await signIn(page);
  await page.getByRole('tab', { name: 'Orders' }).click();
  const row = page.getByTestId('order-row').filter({ hasText: number });
  await expect(row).toContainText('Paid');
  await row.getByRole('button', { name: number }).click();
  const dialog = page.getByRole('dialog', { name: `Order ${number}` });
  await expect(dialog.getByTestId('order-dialog-stage')).toHaveText('Paid');
  await expect(dialog).toContainText(demoShopper.email);
  await expect(dialog.getByRole('button', { name: 'Copy customer link' })).toBeVisible();
  await expect(dialog.getByRole('link', { name: /^Packing slip/ })).toHaveAttribute('target', '_blank');
  await settle(page);
  await expectNoAxeViolations(page, 'the admin order dialog');

  // Ships it with UPS: the store makes the tracking link.
  await dialog.getByRole('button', { name: 'Mark as shipped' }).click();
  const shipForm = dialog.getByRole('form', { name: 'Shipment' });
  await expect(shipForm.getByLabel('Carrier')).toBeFocused();
  await shipForm.getByLabel('Carrier').fill('UPS');
  await shipForm.getByLabel('Tracking number').fill('1Z999AA10123456784');
  await shipForm.getByRole('button', { name: 'Save shipment' }).click();
  await expect(dialog.getByTestId('order-dialog-stage')).toHaveText('Shipped');
  const shipment = dialog.getByTestId('order-shipment');
  await expect(shipment).toContainText('UPS');
  await expect(shipment.getByRole('link')).toHaveAttribute('href', /ups\.com.*1Z999AA10123456784/);
  await expect(dialog.getByRole('button', { name: 'Mark as shipped' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Mark as delivered' })).toBeVisible();

  // Refunds one of the two lines.
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  const refundForm = dialog.getByRole('form', { name: 'Refund' });
  await refundForm.getByRole('combobox').first().selectOption('1');
  await expect(refundForm.getByTestId('refund-amount')).not.toHaveText(/^\$0(\.00)?$/);
  await refundForm.getByRole('button', { name: /^Refund \$/ }).click();
  await expect(refundForm).toBeHidden();
  await expect(dialog.getByTestId('refunds')).toContainText('Refunded');
  const timeline = dialog.getByTestId('order-timeline');
  await expect(timeline).toContainText('Shipped');
  await expect(timeline).toContainText('UPS');
  await expect(timeline).toContainText('Refunded');
  await expect(dialog.getByTestId('order-line').first()).toContainText('refunded');
  await expectNoAxeViolations(page, 'the admin order dialog after shipping and a refund');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(row).toContainText('Shipped');
  await expect(row).toContainText('Partly refunded');

  // The packing slip lists the lines, without prices.
  await page.goto(`/admin/orders/${encodeURIComponent(orderId)}/packing-slip`);
  await expect(page.getByRole('heading', { level: 1, name: `Packing slip · Order ${number}` })).toBeVisible();
  const slip = page.getByTestId('packing-slip-lines');
  await expect(slip.getByRole('row')).toHaveCount(3); // the header and the two lines
  await expect(slip).toContainText(title);
  await expect(slip).toContainText('1 refunded');
  await expect(slip).not.toContainText('$');
  await expect(page.locator('.packing-slip address')).toContainText(demoShopper.line1);
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();

  // The shopper's page, reloaded: shipped, with the tracking link, and the refund.
  await page.goto(orderPageUrl);
  await expect(progress.locator('[aria-current="step"]')).toContainText('Shipped');
  const track = page.getByRole('link', { name: /Track your parcel/ });
  await expect(track).toHaveAttribute('href', /ups\.com/);
  await expect(track).toHaveAttribute('target', '_blank');
  await expect(track).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(page.getByText('1Z999AA10123456784')).toBeVisible();
  await expect(page.getByTestId('order-refunded')).toBeVisible();
  await expect(page.getByTestId('order-line').first()).toContainText('refunded');
  await settle(page);
  await expectNoAxeViolations(page, 'the order page, shipped and partly refunded');
});
