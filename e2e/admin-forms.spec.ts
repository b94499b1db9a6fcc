import { openAdminTab, signIn } from './support/admin';
import { expect, type Page, test } from './support/test';

/** A product of this test's own, with the given stock; returns its row in the products table. */
async function addProduct(page: Page, title: string, stock: Record<string, string>) {
  await page.getByRole('button', { name: 'Add Product' }).click();
  const form = page.getByRole('dialog', { name: 'Add New Product' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('A test piece.');
  await form.getByLabel('Price').fill('40.00');
  for (const [size, count] of Object.entries(stock)) await form.getByLabel(`Stock for ${size}`).fill(count);
  await form.getByRole('button', { name: 'Add Product' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product added successfully' })).toBeVisible();
  await page.getByPlaceholder('Search products by title, SKU, price, or tags...').fill(title);
  const row = page.getByTestId('product-row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  return row;
}

test('the Stock cell reads each size, its count and its state apart: "S: 3; M: 0, sold out"', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  await signIn(page);
  await openAdminTab(page, 'Products');
  const row = await addProduct(page, `Stock Words Kurta ${Date.now()}`, { S: '3', M: '0', L: '1' });
  const cell = row.getByRole('cell').filter({ has: page.getByTestId('product-stock') });
  await expect(cell).toHaveAccessibleName('S: 3; M: 0, sold out; L: 1');
  // What is on screen is the same words: no separator is only drawn.
  await expect(row.getByTestId('product-stock')).toHaveText('S: 3; M: 0, sold out; L: 1');
});

test('Add media stays off while the URL or the file name is blank, and at 20 of 20 items', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await openAdminTab(page, 'Products');
  const title = `Media Limit Dupatta ${Date.now()}`;
  const row = await addProduct(page, title, {});
  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  const form = edit.getByRole('form', { name: 'Add media by URL' });
  const add = form.getByRole('button', { name: 'Add media' });
  await expect(edit.getByText('0 of 20 media slots used.')).toBeVisible();
  // The list has loaded (the button is off while it loads, whatever the fields say).
  await expect(edit.getByText('No media yet. Upload files or add one by URL below.')).toBeVisible();

  await expect(add).toBeDisabled();
  await expect(add).toHaveAccessibleDescription('Enter a URL and a file name to add media.');
  // The file name first: leaving the URL box fills an empty file name from the URL.
  await form.getByLabel('File name').fill('   ');
  await form.getByLabel('URL').fill('https://images.example/one.jpg');
  await expect(add).toBeDisabled();
  await form.getByLabel('URL').fill('   ');
  await form.getByLabel('File name').fill('one.jpg');
  await expect(add).toBeDisabled();

  for (let n = 1; n <= 20; n++) {
    await form.getByLabel('File name').fill(`piece-${n}.jpg`);
    await form.getByLabel('URL').fill(`https://images.example/piece-${n}.jpg`);
    await expect(add).toBeEnabled();
    await add.click();
    await expect(edit.getByText(`${n} of 20 media slots used.`)).toBeVisible();
    await expect(form.getByLabel('URL')).toHaveValue('');
  }
  await form.getByLabel('File name').fill('piece-21.jpg');
  await form.getByLabel('URL').fill('https://images.example/piece-21.jpg');
  await expect(add).toBeDisabled();
  await expect(add).toHaveAccessibleDescription('Maximum 20 media items allowed per product');
  await expect(edit.getByTestId('media-item')).toHaveCount(20);
});

test('importing with no file chosen says "Please select a file to import", not the browser’s message', async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('tab', { name: 'Catalog Management' }).click();
  await page.getByRole('button', { name: 'Import Catalog' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Catalog' });
  const file = dialog.getByLabel('YAML file');
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please select a file to import');
  await expect(file).toBeFocused();
  await expect(file).toHaveAttribute('aria-invalid', 'true');
  await expect(file).toHaveAccessibleDescription('Please select a file to import');
  // Still required (and so announced), but the form's own check answered, not the browser's bubble, which
  // would have held the submit back before any of the above.
  expect(await file.evaluate((el: HTMLInputElement) => el.validationMessage)).not.toBe('');
  await expect(page.getByTestId('toast').filter({ hasText: 'Please select a file to import' })).toBeVisible();
});
