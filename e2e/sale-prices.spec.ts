import { createProduct, signIn } from './support/admin';
import { runOnStore } from './support/store-database';
import { expect, test } from './support/test';

test.describe.configure({ timeout: 120_000 });

/**
 * A running sale (decision 0037) as a shopper sees it: the card and the product page show the sale price
 * beside the regular one struck through and a "−20%" badge, and the On sale filter finds the product. On a
 * product of its own, so the journeys that read the demo catalogue's prices in parallel are not disturbed.
 */
test('a running sale shows its price and badge on the card and the page, and On sale finds it', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  const stamp = Date.now();
  const id = `sale-kurta-${stamp}`;
  const title = `Sale Lawn Kurta ${stamp}`;
  await signIn(page);
  await createProduct(page, id, {
    title,
    description: 'For the sale journey.',
    sku: `SALE-${stamp}`,
    price: '50.00',
    currency: 'usd',
    sizes: ['S', 'M'],
    tags: [],
    colors: [],
  });
  const now = new Date().toISOString();
  await runOnStore(
    `INSERT INTO discounts (id, kind, name, value_type, percent, target, scope, starts_at, ends_at, uses,
      created_at, updated_at) VALUES (?, 'sale', 'Eid', 'percent', 20, 'items', ?, ?, ?, 0, ?, ?)`,
    [
      `sale-${stamp}`,
      JSON.stringify({ products: [id] }),
      '2000-01-01T00:00:00.000Z',
      '2099-01-01T00:00:00.000Z',
      now,
      now,
    ],
  );
  try {
    await page.goto(`/?q=${encodeURIComponent(`Sale Lawn Kurta ${stamp}`)}&sale=1`);
    const card = page.getByTestId('product-card').filter({ hasText: title });
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId('sale-badge')).toHaveText('−20%20% off');
    await expect(card.getByTestId('regular-price')).toContainText('$50');
    await expect(card.getByTestId('product-price')).toContainText('Sale price $40');
    await expect(page.getByLabel(/On sale/)).toBeChecked();

    await page.goto(`/product/${encodeURIComponent(id)}`);
    const price = page.getByTestId('product-detail-price');
    await expect(price.getByTestId('sale-badge')).toBeVisible();
    await expect(price.locator('del')).toContainText('Regular price');
    await expect(price).toContainText('Sale price USD 40.00');

    // Bought at the price shown: the cart charges the sale price and says nothing changed.
    const detail = page.getByTestId('product-detail');
    await detail.locator('fieldset label').first().click();
    await detail.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Added to cart!' }).first()).toBeVisible();
    // The cart panel's line says it as the checkout page does: the sale price, the regular one struck through
    // (announced as the regular price) and the badge.
    await page.getByRole('button', { name: 'Cart, 1 item' }).click();
    const line = page.getByRole('region', { name: 'Cart' }).getByTestId('cart-line');
    const linePrice = line.getByTestId('line-sale-price');
    await expect(linePrice).toContainText('Sale price $40 each');
    await expect(linePrice.locator('s')).toHaveText('Regular price $50');
    await expect(linePrice).toContainText('20% off in Eid');
    await page.keyboard.press('Escape');
    await page.goto('/checkout');
    await expect(page.getByTestId('checkout-total')).toHaveText('$40');
    await expect(page.getByText('The price changed since you added it.')).toHaveCount(0);
  } finally {
    await runOnStore('DELETE FROM discounts WHERE id = ?', [`sale-${stamp}`]);
    await runOnStore('DELETE FROM products WHERE id = ?', [id]);
  }
});
