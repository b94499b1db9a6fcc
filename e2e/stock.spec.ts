import { openAdminTab, signIn } from './support/admin';
import { expect, test } from './support/test';

// A product of its own rather than a demo one: the other journeys buy demo products in size M, in parallel.
test('the operator sets a size to none left; the store shows it disabled and named sold out, and the table says so', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  test.setTimeout(60_000);
  const title = `Indigo Block-print Kurta ${Date.now()}`;
  await signIn(page);
  await openAdminTab(page, 'Products');
  await page.getByRole('button', { name: 'Add Product' }).click();
  const form = page.getByRole('dialog', { name: 'Add New Product' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('Hand block-printed cotton kurta.');
  await form.getByLabel('Price').fill('60.00');
  await expect(form.getByText('Leave empty for made-to-order sizes: always available.')).toBeVisible();
  await form.getByLabel('Stock for S').fill('3');
  await form.getByLabel('Stock for M').fill('0');
  await form.getByRole('button', { name: 'Add Product' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product added successfully' })).toBeVisible();

  await page.getByPlaceholder('Search products by title, SKU, price, or tags...').fill(title);
  const row = page.getByTestId('product-row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').filter({ has: page.getByTestId('product-stock') })).toHaveAccessibleName(
    'S: 3; M: 0, sold out',
  );
  // The dashboard lists it among the sizes to reorder (at or under the low-stock threshold, 2 by default).
  await page.reload();
  await expect(page.getByTestId('low-stock')).toContainText(`${title}`);
  await expect(
    page
      .getByTestId('low-stock')
      .getByText(/— M: sold out/)
      .first(),
  ).toBeVisible();

  const shop = await page.context().newPage();
  await shop.goto(`/?q=${encodeURIComponent(title)}`);
  const card = shop.getByTestId('product-card').filter({ hasText: title });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('product-card-sold-out')).toHaveCount(0);

  // "In stock only": with M chosen the kurta goes (M is sold out), with S it stays, and the URL keeps it.
  await shop.goto(`/?q=${encodeURIComponent(title)}&size=M`);
  await expect(card).toBeVisible();
  const filters = shop.getByRole('complementary', { name: 'Filters' });
  await filters.getByRole('checkbox', { name: 'In stock only' }).check();
  await expect(shop).toHaveURL(/instock=1/);
  await expect(shop.getByTestId('result-count')).toHaveText('0 products');
  await expect(card).toHaveCount(0);
  await shop.goto(`/?q=${encodeURIComponent(title)}&size=S&instock=1`);
  await expect(filters.getByRole('checkbox', { name: 'In stock only' })).toBeChecked();
  await expect(card).toBeVisible();
  await expect(shop.getByTestId('result-count')).toHaveText('1 product');
  await card.getByRole('heading').getByRole('link').click();

  const detail = shop.getByTestId('product-detail');
  const sizes = detail.getByRole('group', { name: 'Size' });
  await expect(sizes.getByRole('radio', { name: 'M, sold out' })).toBeDisabled();
  await expect(sizes.getByText('Sold out')).toBeVisible();
  await expect(sizes.getByRole('radio', { name: 'S', exact: true })).toBeEnabled();
  await expect(sizes.getByRole('radio', { name: 'L', exact: true })).toBeEnabled();
  await expect(shop.getByTestId('product-sold-out')).toHaveCount(0);
  await sizes.getByText('M', { exact: true }).click({ force: true });
  await expect(detail.getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
  await sizes.getByText('S', { exact: true }).click();
  await expect(detail.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();

  // The shopper leaves an address for M: the store will email once when it is back.
  const waiting = detail.getByRole('region', { name: 'M is sold out' });
  await waiting.getByLabel('Email me when it is back').fill('waiting@example.com');
  await waiting.getByRole('button', { name: 'Notify me' }).click();
  await expect(waiting.getByRole('status')).toHaveText(
    'We will email waiting@example.com once when M is back.',
  );

  // Clean up: the product goes (the reload opened the dashboard on the Overview).
  await openAdminTab(page, 'Products');
  page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: `Delete ${title}` }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product deleted successfully' })).toBeVisible();
});
