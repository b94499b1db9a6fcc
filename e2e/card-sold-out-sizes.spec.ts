import { openAdminTab, signIn } from './support/admin';
import { expect, test } from './support/test';

// A product of its own rather than a demo one: the other journeys buy demo products in size M, in parallel.
test('a listing card names a sold-out size and will not add it to the cart; stock added makes it buyable again', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  test.setTimeout(60_000);
  const title = `Saffron Lawn Kurta ${Date.now()}`;
  await signIn(page);
  await openAdminTab(page, 'Products');
  await page.getByRole('button', { name: 'Add Product' }).click();
  const form = page.getByRole('dialog', { name: 'Add New Product' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('Printed lawn kurta.');
  await form.getByLabel('Price').fill('45.00');
  await form.getByLabel('Stock for S').fill('3');
  await form.getByLabel('Stock for M').fill('0');
  await form.getByRole('button', { name: 'Add Product' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product added successfully' })).toBeVisible();

  const shop = await page.context().newPage();
  await shop.goto(`/?q=${encodeURIComponent(title)}`);
  const card = shop.getByTestId('product-card').filter({ hasText: title });
  await expect(card).toBeVisible();
  const sizes = card.getByLabel(`Size for ${title}`);
  // As on the product page: M is there, named sold out (its own text, so a screen reader hears it), and
  // cannot be chosen; the others can.
  await expect(sizes.getByRole('option', { name: 'M, sold out' })).toBeDisabled();
  await expect(sizes.getByRole('option', { name: 'S', exact: true })).toBeEnabled();
  await expect(sizes.getByRole('option', { name: 'L', exact: true })).toBeEnabled();
  await expect(card.getByTestId('product-card-sold-out')).toHaveCount(0);

  // Forced past the disabled option (as a stale page or a script could), M is still not bought.
  await sizes.evaluate((select: HTMLSelectElement) => {
    select.value = 'M';
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await card.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(card.getByRole('alert')).toHaveText('Please select a size');
  await expect(shop.getByTestId('toast').filter({ hasText: 'Added to cart!' })).toHaveCount(0);
  await expect(shop.getByRole('button', { name: 'Cart, 0 items' })).toBeVisible();

  await sizes.selectOption('S');
  await card.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(shop.getByTestId('toast').filter({ hasText: 'Added to cart!' }).first()).toBeVisible();
  await shop.getByRole('button', { name: 'Cart, 1 item' }).click();
  await expect(shop.getByRole('region', { name: 'Cart' }).getByTestId('cart-line')).toHaveText([
    new RegExp(`${title}.*Size S`, 's'),
  ]);

  // The owner receives five of M: the next listing offers it as any other size.
  await page.getByPlaceholder('Search products by title, SKU, price, or tags...').fill(title);
  const row = page.getByTestId('product-row').filter({ hasText: title });
  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  await edit.getByLabel('Stock for M').fill('5');
  await edit.getByRole('button', { name: 'Save Product' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product updated successfully' })).toBeVisible();
  await shop.reload();
  await expect(sizes.getByRole('option', { name: 'M', exact: true })).toBeEnabled();
  await expect(sizes.getByRole('option', { name: 'M, sold out' })).toHaveCount(0);
  await sizes.selectOption('M');
  await card.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(shop.getByRole('button', { name: 'Cart, 2 items' })).toBeVisible();

  // Clean up: the product goes.
  page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: `Delete ${title}` }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product deleted successfully' })).toBeVisible();
});
