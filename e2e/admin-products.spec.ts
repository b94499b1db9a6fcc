import path from 'node:path';
import { adminEmail, openAdminTab, signIn } from './support/admin';
import { expect, test } from './support/test';

const fixtures = path.resolve(import.meta.dirname, 'fixtures');

test('the operator adds a product with sizes, tags, size details and two images, sees it in the store, reorders, edits, checks history and deletes it', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  test.setTimeout(90_000);
  const title = `Saffron Silk Angrakha ${Date.now()}`;
  await signIn(page);
  await openAdminTab(page, 'Products');
  await page.getByRole('button', { name: 'Add Product' }).click();
  const form = page.getByRole('dialog', { name: 'Add New Product' });
  await expect(form.getByLabel('SKU')).toHaveValue(/^SKU-[a-z0-9]{8}$/);
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('Hand-finished silk angrakha with gota edging.');
  await form.getByLabel('Price').fill('123.45');
  await form.getByRole('button', { name: 'Remove XL' }).click();
  await form.getByLabel('Sizes').fill('XXL');
  await form.getByLabel('Sizes').press('Enter');
  await form.getByLabel('Sizes').fill('  ');
  await form.getByLabel('Sizes').press('Enter');
  await form.getByLabel('Tags').fill('eid');
  await form.getByLabel('Tags').press('Enter');
  await form.getByLabel('Tags').fill('silk');
  await form.getByLabel('Tags').press('Enter');
  await form.getByRole('button', { name: 'Add colour' }).click();
  await expect(form.getByLabel('Colour 1 name')).toBeFocused();
  await form.getByLabel('Colour 1 name').fill('Saffron');
  await form.getByLabel('Chest (in) for size S').fill('36');
  await expect(form.getByLabel('Image folder')).toHaveValue(/\/saffron-silk-angrakha-\d+$/);
  await form.getByRole('button', { name: 'Add Product' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product added successfully' })).toBeVisible();

  await page.getByPlaceholder('Search products by title, SKU, price, or tags...').fill(title);
  const row = page.getByTestId('product-row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('123.45');
  await expect(row).toContainText('eid');

  // Two uploaded images, through the media manager in the edit dialog.
  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  await edit
    .locator('input[type=file]')
    .setInputFiles([path.join(fixtures, 'front.png'), path.join(fixtures, 'back.jpg')]);
  await expect(edit.getByText('2 of 20 media slots used.')).toBeVisible({ timeout: 20_000 });

  // The storefront shows it with its images in order.
  const shop = await page.context().newPage();
  await shop.goto(`/?q=${encodeURIComponent(title)}`);
  const card = shop.getByTestId('product-card').filter({ hasText: title });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('product-price')).toHaveText('$123.45');
  await card.getByRole('heading').getByRole('link').click();
  const gallery = shop.getByRole('list', { name: 'More pictures' }).locator('img');
  await expect(gallery).toHaveCount(2);
  const firstSrc = await gallery.first().getAttribute('src');
  await expect(shop.getByRole('table')).toContainText('36');

  // Reorder: the second image moves up and becomes the first on the storefront.
  await edit.getByRole('button', { name: 'Move back.jpg up' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: /reorder/i })).toHaveCount(0);
  await expect
    .poll(async () => {
      await shop.reload();
      return shop.getByRole('list', { name: 'More pictures' }).locator('img').first().getAttribute('src');
    })
    .not.toBe(firstSrc);

  // Alt text for the (now first) picture.
  await edit.getByRole('button', { name: 'Edit back.jpg' }).click();
  const mediaDialog = page.getByRole('dialog', { name: 'Edit Media' });
  await mediaDialog.getByLabel('Alt Text').fill('Back of the saffron angrakha');
  await mediaDialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Media updated successfully' })).toBeVisible();
  await shop.reload();
  await expect(shop.getByRole('img', { name: 'Back of the saffron angrakha' }).first()).toBeVisible();

  // Edit the price; the history shows the change with who made it.
  await edit.getByLabel('Price').fill('130.00');
  await expect(edit.getByLabel('Price')).toHaveValue('130.00');
  await edit.getByRole('button', { name: 'Save Product' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product updated successfully' })).toBeVisible();
  await row.getByRole('button', { name: `History of ${title}` }).click();
  const history = page.getByRole('dialog', { name: 'Product History' });
  await expect(history.getByTestId('history-row')).toHaveCount(2);
  await expect(history.getByTestId('history-row').first()).toContainText('update');
  await expect(history.getByTestId('history-row').first()).toContainText('"123.45" → "130.00"');
  await expect(history.getByTestId('history-row').first()).toContainText(adminEmail());
  await history.getByRole('button', { name: 'Close' }).click();

  // Delete it: gone from the table and the store.
  page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: `Delete ${title}` }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product deleted successfully' })).toBeVisible();
  await expect(row).toHaveCount(0);
  await shop.goto(`/?q=${encodeURIComponent(title)}`);
  await expect(shop.getByText('No products match')).toBeVisible();
});

test('the form shows what is wrong before anything is saved', async ({ page }) => {
  await signIn(page);
  await openAdminTab(page, 'Products');
  await page.getByRole('button', { name: 'Add Product' }).click();
  const form = page.getByRole('dialog', { name: 'Add New Product' });
  await form.getByLabel('Price').fill('-5');
  await form.getByRole('button', { name: 'Add Product' }).click();
  await expect(form.getByText('Title is required')).toBeVisible();
  await expect(form.getByText('Description is required')).toBeVisible();
  await expect(form.getByText('Enter a price of 0 or more, like 49.99')).toBeVisible();
  await expect(form).toBeVisible();
});

test('store settings the operator saves show on the storefront', { tag: '@edits-catalogue' }, async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('tab', { name: 'Settings' }).click();
  const form = page.getByRole('form', { name: 'Store settings' });
  const tagline = `Stitched with care ${Date.now()}`;
  await form.getByLabel('Tagline').fill(tagline);
  await form.getByLabel('Upload a banner image').setInputFiles(path.join(fixtures, 'back.jpg'));
  await expect(form.getByLabel('Banner image URL')).toHaveValue(/^\/media\/uploads\/banner-[0-9a-f]+\.webp$/);
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Settings saved' })).toBeVisible();
  await page.goto('/about');
  await expect(page.getByText(tagline)).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Featured' }).locator('img')).toHaveAttribute(
    'src',
    /\/media\/uploads\/banner-/,
  );
});
