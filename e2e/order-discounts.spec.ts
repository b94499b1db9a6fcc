import { placeDemoOrder } from './support/demo-order';
import { runOnStore } from './support/store-database';
import { expect, test } from './support/test';

test.describe.configure({ timeout: 120_000 });

/**
 * The shopper's order page shows what a sale and a code took off (issue 41). The order is placed as a shopper
 * places one, then given a sale and a code the way checkout records them (decision 0037's columns), so this
 * reads the page alone, whatever prices the checkout of the day makes.
 */
test('the order page shows the struck regular price, the sale, the code share and the discount line', async ({
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
});
