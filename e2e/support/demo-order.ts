import { payWithDemoForm } from './demo-payment';
import { expect, type Page } from './test';

export type DemoOrder = {
  /** The first demo product's id, which the order holds one of. */
  productId: string;
  /** /testpayment?session_id=…, the demo payment page the order was paid on. */
  paymentPath: string;
  /** /checkout/success?session_id=… */
  successPath: string;
  /** /order/:id?token=…, the shopper's own order page. */
  orderPath: string;
};

/**
 * A paid demo order of `sizes` sizes of the first product (one of each), made as a shopper makes it: product
 * page, cart, checkout, demo payment, success page.
 */
export async function placeDemoOrder(page: Page, sizes = 1): Promise<DemoOrder> {
  await page.goto('/');
  const card = page.getByTestId('product-card').first();
  const href = (await card.getByRole('heading').getByRole('link').getAttribute('href')) ?? '';
  const productId = decodeURIComponent(href.split('/').pop() ?? '');
  expect(productId).not.toBe('');
  await page.goto(href);
  const detail = page.getByTestId('product-detail');
  for (let index = 0; index < sizes; index++) {
    await detail.locator('fieldset label').nth(index).click();
    await detail.getByRole('button', { name: 'Add to Cart' }).click();
    const count = index + 1;
    await expect(
      page.getByRole('button', { name: `Cart, ${count} item${count === 1 ? '' : 's'}` }),
    ).toBeVisible();
  }
  await page.goto('/checkout');
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page).toHaveURL(/\/testpayment\?session_id=demo_/);
  const paymentPath = new URL(page.url()).pathname + new URL(page.url()).search;
  await payWithDemoForm(page);
  const successPath = new URL(page.url()).pathname + new URL(page.url()).search;
  await page.getByRole('link', { name: 'View your order' }).click();
  await expect(page).toHaveURL(/\/order\/[^/?]+\?token=.+/);
  const orderPath = new URL(page.url()).pathname + new URL(page.url()).search;
  return { productId, paymentPath, successPath, orderPath };
}
