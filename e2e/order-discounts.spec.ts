import { signIn } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { placeDemoOrder } from './support/demo-order';
import { runOnStore } from './support/store-database';
import { expect, test } from './support/test';

test.describe.configure({ timeout: 120_000 });

/**
 * The shopper's order page shows what a sale and a code took off (issue 41). The order is placed as a shopper
 * places one, then given a sale and a code the way checkout records them (decision 0037's columns), so this
 * reads the page alone, whatever prices the checkout of the day makes.
 */
test('the order page and the packing slip show the sale, the code share and the discount line; the list filters by code', async ({
  page,
}) => {
  const order = await placeDemoOrder(page, 2);
  const orderId = decodeURIComponent(order.orderPath.split('/order/')[1]?.split('?')[0] ?? '');
  expect(orderId).not.toBe('');
  // Each line: a regular price Rs 5 above what it sold at under "Eid sale", and a share of 1.00 of the code.
  await runOnStore(
    `UPDATE order_lines SET regular_unit_price_minor = unit_price_minor + 500, sale_name = 'Eid sale',
       discount_minor = 100, line_total_minor = line_total_minor - 100 WHERE order_id = ?`,
    [orderId],
  );
  await runOnStore(
    `UPDATE orders SET discount_minor = 200, discount_code = 'EID10', total_minor = total_minor - 200
       WHERE id = ?`,
    [orderId],
  );
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(order.orderPath);
  await expect(page.getByTestId('order-line')).toHaveCount(2);
  const savings = page.getByTestId('order-line-savings');
  await expect(savings).toHaveCount(2);
  await expect(savings.first()).toContainText('Eid sale');
  await expect(savings.first().locator('s')).toBeVisible();
  await expect(page.getByTestId('order-line-code-discount').first()).toContainText('Code discount −');
  const discount = page.getByTestId('order-discount');
  await expect(discount).toContainText('Discount (EID10)');
  await expect(discount).toContainText('−');
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
  await expectNoAxeViolations(page, 'an order page with a sale and a code');

  // The packing slip of such an order carries what each line was charged and the discount.
  await signIn(page);
  await page.goto(`/admin/orders/${encodeURIComponent(orderId)}/packing-slip`);
  const totals = page.getByTestId('packing-slip-totals');
  await expect(totals).toContainText('Discount (EID10)');
  await expect(page.getByTestId('packing-slip-lines')).toContainText('Eid sale');
  await expect(page.getByTestId('packing-slip-lines')).toContainText('after code discount −');

  // The admin's list by code: the order, with its code on its row.
  await page.goto('/admin/dashboard');
  await page.getByRole('tab', { name: 'Orders' }).click();
  await page.getByRole('searchbox', { name: 'Discount code' }).fill('eid10');
  await page.getByRole('button', { name: 'Filter' }).click();
  const row = page.getByTestId('order-row').first();
  await expect(row.getByTestId('order-row-code')).toHaveText('EID10');
  await page.getByRole('searchbox', { name: 'Discount code' }).fill('NOSUCHCODE');
  await page.getByRole('searchbox', { name: 'Discount code' }).press('Enter');
  await expect(page.getByText('No orders with the code NOSUCHCODE.')).toBeVisible();
});
