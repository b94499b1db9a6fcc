import { expectNoAxeViolations } from './support/axe';
import { payWithDemoForm } from './support/demo-payment';
import { queryStore, runOnStore } from './support/store-database';
import { expect, type Page, test } from './support/test';

/** Minor units of a price as the page shows it ("$85.00", "Rs 5,500.00"). */
const minor = (text: string | null) => Math.round(Number((text ?? '').replace(/[^0-9.]/g, '')) * 100);

/** A code of this run's own (no screen makes one yet here): 10 % off the order, 5 uses. */
const CODE = `SAVE${Date.now() % 1_000_000}`;

test.beforeAll(async () => {
  const now = new Date().toISOString();
  await runOnStore(
    `INSERT INTO discounts (id, kind, name, code, code_key, value_type, percent, target, scope, starts_at,
       max_uses, uses, created_at, updated_at)
     VALUES (?, 'code', ?, ?, ?, 'percent', 10, 'order', '{}', ?, 5, 0, ?, ?)`,
    [`e2e_${CODE}`, 'Ten percent off', CODE, CODE, '2020-01-01T00:00:00.000Z', now, now],
  );
});
test.afterAll(async () => {
  await runOnStore('DELETE FROM discount_redemptions WHERE discount_id = ?', [`e2e_${CODE}`]);
  await runOnStore('DELETE FROM discounts WHERE id = ?', [`e2e_${CODE}`]);
});

async function addFirstProduct(page: Page): Promise<void> {
  await page.goto('/');
  const card = page.getByTestId('product-card').first();
  await card.getByRole('heading').getByRole('link').click();
  const detail = page.getByTestId('product-detail');
  await detail.locator('fieldset label').first().click();
  await detail.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Added to cart!' }).first()).toBeVisible();
}

// Axe walks every node of the page; on a busy 2-core machine one run can take many seconds.
test.describe.configure({ timeout: 120_000 });

test('a shopper applies a discount code in the cart, sees the discount, pays in demo mode and is charged the discounted total', async ({
  page,
}) => {
  await addFirstProduct(page);
  await page.goto('/checkout');
  const total = page.getByTestId('checkout-total');
  await expect(total).not.toHaveText('—');
  const before = minor(await total.textContent());
  expect(before).toBeGreaterThan(0);

  // A wrong code: the server's reason, announced, and nothing taken off.
  const field = page.getByLabel('Discount code');
  const status = page.getByTestId('discount-code-status');
  await expect(status).toHaveAttribute('aria-live', 'polite');
  await field.fill('NO-SUCH-CODE');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(status).toHaveText('This code does not exist. Please check its spelling.');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(minor(await total.textContent())).toBe(before);

  // The right code, in any case: the discount line and the total less 10 %, half up.
  await field.fill(CODE.toLowerCase());
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(status).toHaveText(`Code ${CODE} applied.`);
  const discount = Math.floor((before * 10 + 50) / 100);
  await expect(page.getByTestId('checkout-discount')).toBeVisible();
  expect(minor(await page.getByTestId('checkout-discount').textContent())).toBe(discount);
  await expect.poll(async () => minor(await total.textContent())).toBe(before - discount);
  await page.waitForLoadState('networkidle');
  await expectNoAxeViolations(page, 'the cart with a discount code');

  // Kept with the cart: a reload still has it.
  await page.reload();
  await expect(page.getByTestId('applied-code')).toHaveText(CODE);
  await expect
    .poll(async () => minor(await page.getByTestId('checkout-total').textContent()))
    .toBe(before - discount);

  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  // The demo payment page says what is being paid, from the order the server made: the line, the code's
  // discount, shipping (none in demo mode) and the discounted total.
  await expect(page).toHaveURL(/\/testpayment\?session_id=demo_/);
  const summary = page.getByTestId('demo-order-summary');
  await expect(summary.getByTestId('order-line')).toHaveCount(1);
  await expect(summary.getByTestId('order-line')).toContainText('× 1');
  expect(minor(await summary.getByTestId('demo-subtotal').textContent())).toBe(before);
  await expect(summary.getByText(`Discount (${CODE})`)).toBeVisible();
  expect(minor(await summary.getByTestId('demo-discount').textContent())).toBe(discount);
  await expect(summary.getByTestId('order-line-code-discount')).toContainText('Code discount −');
  expect(minor(await summary.getByTestId('demo-shipping').textContent())).toBe(0);
  expect(minor(await summary.getByTestId('demo-total').textContent())).toBe(before - discount);
  await expectNoAxeViolations(page, 'the demo payment page with its order');
  await payWithDemoForm(page);
  expect(minor(await page.getByTestId('order-total').textContent())).toBe(before - discount);
  // The code went with the order: the next cart starts without it.
  expect(await page.evaluate(() => localStorage.getItem('cart:code:v1'))).toBeNull();

  // The order keeps the code and its use is redeemed.
  const rows = await queryStore<{ status: string; amount_minor: number | string }>(
    'SELECT status, amount_minor FROM discount_redemptions WHERE discount_id = ?',
    [`e2e_${CODE}`],
  );
  expect(rows.map((r) => [r.status, Number(r.amount_minor)])).toEqual([['redeemed', discount]]);
});
