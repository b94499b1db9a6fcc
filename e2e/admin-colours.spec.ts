import path from 'node:path';
import type { Page } from '@playwright/test';
import { openAdminTab, signIn } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { expect, test } from './support/test';

const fixtures = path.resolve(import.meta.dirname, 'fixtures');

type QuoteLine = {
  colour: string | null;
  size: string | null;
  left: number | null;
  image: string | null;
  unitPriceMinor: number | null;
  problem: string | null;
};

/** The storefront's own quote for one line, through the tRPC HTTP API a cart uses. */
async function quote(page: Page, productId: string, colour: string, quantity = 1): Promise<QuoteLine> {
  const input = { lines: [{ productId, colour, size: 'M', quantity }] };
  const res = await page.request.get(
    `/api/trpc/checkout.quote?input=${encodeURIComponent(JSON.stringify(input))}`,
  );
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { result: { data: { lines: QuoteLine[] } } };
  const [line] = body.result.data.lines;
  if (!line) throw new Error('the quote has no line');
  return line;
}

test('the owner gives a product two colours, a photo and a price for one, and stock per colour; the store quotes each colour by its own', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  test.setTimeout(90_000);
  const title = `Lawn Kurta in Colours ${Date.now()}`;
  await signIn(page);
  await openAdminTab(page, 'Products');
  await page.getByRole('button', { name: 'Add Product' }).click();
  const form = page.getByRole('dialog', { name: 'Add New Product' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('Breezy lawn, one design in two colours.');
  await form.getByLabel('Price').fill('50.00');
  await form.getByRole('button', { name: 'Add Product' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product added successfully' })).toBeVisible();

  await page.getByPlaceholder('Search products by title, SKU, price, or tags...').fill(title);
  const row = page.getByTestId('product-row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  await edit
    .locator('input[type=file]')
    .setInputFiles([path.join(fixtures, 'front.png'), path.join(fixtures, 'back.jpg')]);
  await expect(edit.getByText('2 of 20 media slots used.')).toBeVisible({ timeout: 20_000 });

  // Two colours, typed after the keyboard's focus lands in each new name box.
  await edit.getByRole('button', { name: 'Add colour' }).click();
  await expect(edit.getByLabel('Colour 1 name')).toBeFocused();
  await page.keyboard.type('Teal');
  await edit.getByRole('button', { name: 'Add colour' }).click();
  await expect(edit.getByLabel('Colour 2 name')).toBeFocused();
  await page.keyboard.type('Maroon');
  // Reordered from the keyboard: the focus stays with the colour moved.
  await edit.getByRole('button', { name: 'Move Maroon up' }).click();
  await expect(edit.getByLabel('Colour 1 name')).toHaveValue('Maroon');
  await expect(edit.getByRole('button', { name: 'Move Maroon down' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(edit.getByLabel('Colour 1 name')).toHaveValue('Teal');
  await expect(edit.getByRole('button', { name: 'Move Maroon up' })).toBeFocused();
  await edit.getByLabel('Colour 1 swatch hex (optional)').fill('#1f7a6d');
  await edit.getByLabel('Colour 1 amount in USD (optional)').fill('55.00');

  // The back photo is Teal's; the front one, claimed by no colour, is every colour's.
  const tealPhotos = edit.getByRole('group', { name: 'Photos of Teal' });
  await tealPhotos.getByRole('checkbox', { name: /back\.jpg/ }).check();

  // A wrong count is named beside its box, which takes the focus on save.
  await edit.getByLabel('Stock of Teal, size M').fill('-1');
  await edit.getByRole('button', { name: 'Save Product' }).click();
  await expect(edit.getByLabel('Stock of Teal, size M')).toBeFocused();
  await expect(edit.getByText('Stock cannot be negative')).toBeVisible();
  await expectNoAxeViolations(page, 'the edit product dialog with colours and an error in the stock grid');
  await edit.getByLabel('Stock of Teal, size M').fill('1');
  await edit.getByLabel('Stock of Maroon, size M').fill('3');
  await edit.getByRole('button', { name: 'Save Product' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product updated successfully' })).toBeVisible();

  // The table shows each colour with its own counts.
  const stock = row.getByTestId('product-stock');
  await expect(stock.getByTestId('colour-stock')).toHaveText(['Teal: M 1', 'Maroon: M 3']);

  // The store's quote: Teal M has 1 left at Teal's price with Teal's photo; Maroon M has 3 at the product's.
  const id = (await row.getByRole('cell').first().locator('span').getAttribute('title')) ?? '';
  expect(id).toMatch(/^plink_/);
  const teal = await quote(page, id, 'teal');
  expect(teal).toMatchObject({ colour: 'Teal', left: 1, unitPriceMinor: 5500, problem: null });
  expect(teal.image).toMatch(/\/media\/uploads\//);
  const maroon = await quote(page, id, 'Maroon', 2);
  expect(maroon).toMatchObject({ colour: 'Maroon', left: 3, unitPriceMinor: 5000, problem: null });
  expect(maroon.image).not.toBe(teal.image);
  expect((await quote(page, id, 'Teal', 2)).problem).toBe('not_enough_stock');

  // The edit form reads it all back.
  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const again = page.getByRole('dialog', { name: 'Edit Product' });
  await expect(again.getByLabel('Colour 1 name')).toHaveValue('Teal');
  await expect(again.getByLabel('Stock of Maroon, size M')).toHaveValue('3');
  await expect(
    again.getByRole('group', { name: 'Photos of Teal' }).getByRole('checkbox', { name: /back\.jpg/ }),
  ).toBeChecked();
  await again.getByRole('button', { name: 'Cancel' }).click();

  // The history says what changed, colour by colour; the dashboard names "Teal / M" among low stock.
  await row.getByRole('button', { name: `History of ${title}` }).click();
  const history = page.getByRole('dialog', { name: 'Product History' });
  const latest = history.getByTestId('history-row').first();
  await expect(latest).toContainText('colour added: "Teal (#1f7a6d, price 55.00, photos back.jpg)"');
  await expect(latest).toContainText('stock Maroon / M: "not tracked" → 3');
  await history.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  await expect(page.getByTestId('low-stock').getByText(`${title}`).first()).toContainText('Teal / M: 1 left');
  await openAdminTab(page, 'Products');

  // Clean up: the product goes.
  await page.getByPlaceholder('Search products by title, SKU, price, or tags...').fill(title);
  page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: `Delete ${title}` }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Product deleted successfully' })).toBeVisible();
});
