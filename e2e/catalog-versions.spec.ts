import { readFileSync } from 'node:fs';
import { adminEmail, adminPassword, signIn } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { expectFocusTrappedIn, expectVisibleFocus, tabTo } from './support/keyboard';
import { expect, test } from './support/test';

// These tests replace the whole live catalogue, so they run one after the other, never beside others'.
test.describe.configure({ mode: 'serial' });

test('export with a label and tags, view it, change a product, import it back in overwrite mode, and publish an older version', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.getByRole('tab', { name: 'Catalog Management' }).click();
  const label = `Spring Collection ${Date.now()}`;
  await page.getByRole('button', { name: 'Export Catalog' }).click();
  const exportDialog = page.getByRole('dialog', { name: 'Export Catalog' });
  await exportDialog.getByLabel('Label (optional)').fill(label);
  await exportDialog.getByLabel('Tags (comma-separated)').fill(' spring , eid ,, ');
  await exportDialog.getByRole('button', { name: 'Export' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Catalog exported successfully' })).toBeVisible();
  const row = page.getByTestId('catalog-version').filter({ hasText: label, hasNotText: /backup/i });
  await expect(row).toContainText('spring');
  await expect(row).toContainText('eid');

  // The viewer shows the YAML.
  await row.getByRole('button', { name: 'View' }).click();
  const yaml = page.getByRole('textbox', { name: 'Catalog YAML' });
  await expect(yaml).toHaveValue(/products:/);
  const firstTitle = /title: (.+)/.exec(await yaml.inputValue())?.[1]?.replace(/^['"]|['"]$/g, '') ?? '';
  expect(firstTitle).not.toBe('');

  // Download it (admin-only route), change a product, then import the file in overwrite mode.
  await page.getByRole('tab', { name: 'Catalog Versions' }).click();
  const downloadPromise = page.waitForEvent('download');
  await row.getByRole('link', { name: 'Download' }).click();
  const download = await downloadPromise;
  const file = await download.path();
  expect(readFileSync(file, 'utf8')).toContain(label);

  await page.getByRole('tab', { name: 'Products' }).click();
  await page.getByPlaceholder('Search products by title, SKU, price, or tags...').fill(firstTitle);
  const productRow = page.getByTestId('product-row').filter({ hasText: firstTitle }).first();
  await productRow.getByRole('button', { name: `Edit ${firstTitle}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  await edit.getByLabel('Price').fill('1.00');
  await expect(edit.getByLabel('Price')).toHaveValue('1.00');
  await edit.getByRole('button', { name: 'Save Product' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product updated successfully' })).toBeVisible();
  await expect(productRow).toContainText('1.00');

  await page.getByRole('tab', { name: 'Catalog Management' }).click();
  await page.getByRole('button', { name: 'Import Catalog' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Import Catalog' });
  await importDialog.getByLabel('YAML file').setInputFiles(file);
  await importDialog.getByLabel('Overwrite existing products').check();
  await importDialog.getByRole('button', { name: 'Import' }).click();
  await expect(importDialog.getByTestId('import-result')).toContainText(
    /Catalog imported successfully: \d+ of \d+ products added/,
  );
  await importDialog.getByRole('button', { name: 'Done' }).click();

  // The old price is back on the storefront.
  await page.goto(`/?q=${encodeURIComponent(firstTitle)}`);
  const card = page.getByTestId('product-card').filter({ hasText: firstTitle }).first();
  await expect(card.getByTestId('product-price')).not.toHaveText('$1');

  // Publishing an older version makes the storefront follow it (a backup of the live catalogue is kept).
  await page.goto('/admin/dashboard');
  await page.getByRole('tab', { name: 'Catalog Management' }).click();
  const versions = page.getByTestId('catalog-version');
  await expect(versions.filter({ hasText: 'backup' }).first()).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: 'Set Active' }).click();
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Version set as active successfully' }),
  ).toBeVisible();
  await expect(row).toContainText('Active');
  await page.goto('/');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
});

test("imports a file in the spec's table names, names the key it ignored, and keeps a decimal page order", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const run = Date.now();
  const id = `spec_${run}`;
  const yamlText = `products:
  - id: ${id}
    title: Spec Kurta ${run}
    description: Lawn, printed
    sku: SPEC-${run}
    price: 89.99
    currency: usd
    image_folder: /media/images/product-catalog/${id}/spec-kurta
    stripe_payment_link: https://buy.stripe.com/spec${run}
    product_link: https://shop.example.com/p/${id}
    page_order: 2.5
    colour_x: red
`;
  await signIn(page);
  await page.getByRole('tab', { name: 'Catalog Management' }).click();
  await page.getByRole('button', { name: 'Import Catalog' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Import Catalog' });
  await importDialog
    .getByLabel('YAML file')
    .setInputFiles({ name: 'spec.yaml', mimeType: 'application/yaml', buffer: Buffer.from(yamlText) });
  await importDialog.getByRole('button', { name: 'Import' }).click();
  const report = importDialog.getByTestId('import-result');
  await expect(report).toContainText(
    'Catalog imported successfully: 1 of 1 products added; 1 unknown field ignored',
  );
  await expect(importDialog.getByTestId('import-ignored')).toHaveText(
    "Ignored unknown field 'colour_x' on product 1",
  );
  await importDialog.getByRole('button', { name: 'Done' }).click();

  // Every field arrived; the page order field takes and keeps a decimal.
  await page.getByRole('tab', { name: 'Products' }).click();
  await page.getByPlaceholder('Search products by title, SKU, price, or tags...').fill(`Spec Kurta ${run}`);
  const productRow = page.getByTestId('product-row').filter({ hasText: `Spec Kurta ${run}` });
  await expect(productRow).toContainText('2.5');
  await productRow.getByRole('button', { name: `Edit Spec Kurta ${run}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  await expect(edit.getByLabel('Image folder')).toHaveValue(`/media/images/product-catalog/${id}/spec-kurta`);
  await expect(edit.getByLabel('Payment link (optional)')).toHaveValue(`https://buy.stripe.com/spec${run}`);
  await expect(edit.getByLabel('Product link')).toHaveValue(`https://shop.example.com/p/${id}`);
  await expect(edit.getByLabel('Page order')).toHaveValue('2.5');
  await edit.getByLabel('Page order').fill('2.75');
  await edit.getByRole('button', { name: 'Save Product' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product updated successfully' })).toBeVisible();
  await expect(productRow).toContainText('2.75');
});

test('axe finds no problem in the list of catalogue versions or the YAML viewer', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);
  await page.getByRole('tab', { name: 'Catalog Management' }).click();
  const version = page.getByTestId('catalog-version').first();
  await expect(version).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expectNoAxeViolations(page, 'the list of catalogue versions');
  await version.getByRole('button', { name: 'View' }).click();
  await expect(page.getByRole('textbox', { name: 'Catalog YAML' })).toHaveValue(/products:/);
  await expectNoAxeViolations(page, 'the YAML viewer');
});

// Keyboard alone, no click and no fill, as an operator without a mouse works.
test('an operator with only a keyboard signs in, adds a product, exports a catalogue version and publishes it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/admin');
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(adminEmail());
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type(adminPassword());
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();

  // The dashboard opens on the Overview: the arrow key moves to Products, the next tab.
  await tabTo(page, page.getByRole('tab', { name: 'Overview' }));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Products' })).toHaveAttribute('aria-selected', 'true');

  // The add product dialog: focus goes in, stays in, and Escape gives it back to the button that opened it.
  const addButton = page.getByRole('button', { name: 'Add Product' });
  await tabTo(page, addButton);
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: 'Add New Product' });
  await expect(form.getByLabel('SKU')).toHaveValue(/^SKU-/);
  await expectFocusTrappedIn(page, form);
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(addButton).toBeFocused();
  await expectVisibleFocus(page);

  const title = `Keyboard Kurta ${Date.now()}`;
  await page.keyboard.press('Enter');
  await expect(form.getByLabel('SKU')).toHaveValue(/^SKU-/);
  await tabTo(page, form.getByLabel('Title'));
  await page.keyboard.type(title);
  await tabTo(page, form.getByLabel('Description'));
  await page.keyboard.type('Cotton kurta added without a mouse.');
  await tabTo(page, form.getByLabel('Price'));
  await page.keyboard.type('64.50');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('toast').filter({ hasText: 'Product added successfully' })).toBeVisible();
  await expect(form).toBeHidden();
  await expect(addButton).toBeFocused();

  await tabTo(page, page.getByRole('searchbox', { name: 'Search products' }), { backwards: true });
  await page.keyboard.type(title);
  await expect(page.getByTestId('product-row').filter({ hasText: title })).toHaveCount(1);

  // The dashboard's tabs: arrow keys move between them.
  await tabTo(page, page.getByRole('tab', { name: 'Products' }), { backwards: true });
  await page.keyboard.press('ArrowRight');
  const catalogTab = page.getByRole('tab', { name: 'Catalog Management' });
  await expect(catalogTab).toBeFocused();
  await expect(catalogTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Catalog Management' })).toBeVisible();

  // Export a version, in a dialog that keeps focus and gives it back.
  const exportButton = page.getByRole('button', { name: 'Export Catalog' });
  await tabTo(page, exportButton);
  await page.keyboard.press('Enter');
  const exportDialog = page.getByRole('dialog', { name: 'Export Catalog' });
  await expect(exportDialog).toBeVisible();
  await expectFocusTrappedIn(page, exportDialog);
  const label = `Keyboard release ${Date.now()}`;
  await tabTo(page, exportDialog.getByLabel('Label (optional)'));
  await page.keyboard.type(label);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('toast').filter({ hasText: 'Catalog exported successfully' })).toBeVisible();
  await expect(exportDialog).toBeHidden();
  await expect(exportButton).toBeFocused();

  // Publish it.
  const row = page.getByTestId('catalog-version').filter({ hasText: label, hasNotText: /backup/i });
  await expect(row).toContainText(/\d+ products/);
  await tabTo(page, row.getByRole('button', { name: 'Set Active' }));
  page.once('dialog', (d) => void d.accept());
  await page.keyboard.press('Enter');
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Version set as active successfully' }),
  ).toBeVisible();
  await expect(row).toContainText('Active');

  // The published catalogue has the product added above.
  await page.goto(`/?q=${encodeURIComponent(title)}`);
  await expect(page.getByTestId('product-card').filter({ hasText: title })).toBeVisible();
});
