import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIResponse, Page } from '@playwright/test';
import { signIn } from './support/admin';
import { tabTo } from './support/keyboard';
import { expect, test } from './support/test';

const fixtures = path.join(import.meta.dirname, 'fixtures');

type Created = { id: string; updatedAt: string };

/** The admin's own API, called from its signed-in page (its cookie, its origin), as the admin's forms do. */
async function adminCall<T>(page: Page, procedure: string, input: unknown): Promise<T> {
  const res = await page.request.post(`/api/trpc/admin.products.${procedure}`, {
    data: input,
    headers: { origin: new URL(page.url()).origin },
  });
  return ((await ok(res)) as { result: { data: T } }).result.data;
}

async function ok(res: APIResponse): Promise<unknown> {
  expect(res.ok(), await res.text()).toBe(true);
  return res.json();
}

/** Uploads one photo to the product; its stored URL. */
async function upload(page: Page, productId: string, file: string, mimeType: string): Promise<string> {
  const res = await page.request.post(`/api/admin/products/${encodeURIComponent(productId)}/media`, {
    headers: { origin: new URL(page.url()).origin },
    multipart: { files: { name: file, mimeType, buffer: readFileSync(path.join(fixtures, file)) } },
  });
  const body = (await ok(res)) as { items: Array<{ url: string }> };
  const url = body.items[0]?.url;
  if (!url) throw new Error('no media URL in the upload answer');
  return url;
}

// A product of its own: the demo's are bought in size M by other journeys in parallel.
test('a shared link opens the teal kurta: its photos first, its sold-out sizes, swatches by keyboard, and teal in the cart', {
  tag: '@edits-catalogue',
}, async ({ page }) => {
  test.setTimeout(90_000);
  const title = `Colour Lawn Kurta ${Date.now()}`;
  await signIn(page);

  // Mint, teal (its own price, photo and counts) and maroon; the all-colours count has no M left.
  const fields = {
    title,
    description: 'Printed lawn kurta in three colours.',
    sku: `CLK-${Date.now()}`,
    price: '45.00',
    currency: 'usd',
    sizes: ['S', 'M', 'L'],
    tags: [],
    colors: [
      { name: 'Mint', hex: '#98d8c8' },
      { name: 'Teal', hex: '#1f7a6d', skuSuffix: '-TEAL', price: '52.00' },
      { name: 'Maroon', hex: '#800020' },
    ],
    stock: { M: 0 },
    colourStock: { Teal: { S: 0, M: 3, L: 2 } },
  };
  const created = await adminCall<Created>(page, 'create', { fields });
  // The photo of every colour first in the product's order, then teal's: teal's page shows its own first.
  const shared = await upload(page, created.id, 'back.jpg', 'image/jpeg');
  const teal = await upload(page, created.id, 'front.png', 'image/png');
  const current = await page.request.get(
    `/api/trpc/admin.products.byId?input=${encodeURIComponent(JSON.stringify({ id: created.id }))}`,
  );
  const before = ((await ok(current)) as { result: { data: Created } }).result.data;
  await adminCall(page, 'update', {
    id: created.id,
    expectedUpdatedAt: before.updatedAt,
    fields: {
      ...fields,
      colors: fields.colors.map((c) => (c.name === 'Teal' ? { ...c, images: [teal] } : c)),
    },
  });

  const shop = await page.context().newPage();
  // The server's page and the browser's first render must agree (React reports a mismatch as an error).
  const errors: string[] = [];
  shop.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  shop.on('pageerror', (e) => errors.push(e.message));
  // A page before it, to show that trying colours on leaves Back where it was.
  await shop.goto('/about');
  await shop.goto(`/product/${encodeURIComponent(created.id)}?colour=teal`);
  await expect(shop).toHaveTitle(new RegExp(`^${title} — Teal · `));
  const detail = shop.getByTestId('product-detail');
  const colours = detail.getByRole('radiogroup', { name: 'Colour' });
  await expect(colours.getByRole('radio', { name: 'Teal' })).toBeChecked();
  await expect(detail.getByTestId('product-detail-price')).toHaveText('USD 52.00');
  expect(errors.filter((e) => /hydrat|#418|#423|#425/i.test(e))).toEqual([]);

  // Teal's photo first, then the one of every colour.
  const thumbs = shop.getByRole('list', { name: 'More pictures' }).locator('img');
  await expect(thumbs).toHaveCount(2);
  const srcs = await thumbs.evaluateAll((imgs) =>
    imgs.map((i) => (i as HTMLImageElement).getAttribute('src')),
  );
  expect(srcs[0]).toContain(teal.replace(/\.[a-z]+$/, ''));
  expect(srcs[1]).toContain(shared.replace(/\.[a-z]+$/, ''));

  // Teal S is gone; teal M is left though the all-colours M is not.
  const sizes = detail.getByRole('group', { name: 'Size' });
  await expect(sizes.getByRole('radio', { name: 'S, sold out' })).toBeDisabled();
  await expect(sizes.getByRole('radio', { name: 'M', exact: true })).toBeEnabled();
  await expect(sizes.getByRole('radio', { name: 'L', exact: true })).toBeEnabled();

  // The swatches by keyboard: Tab reaches the chosen one, arrows move the choice, the address follows.
  await tabTo(shop, colours.getByRole('radio', { name: 'Teal' }));
  await shop.keyboard.press('ArrowRight');
  await expect(colours.getByRole('radio', { name: 'Maroon' })).toBeChecked();
  await expect(colours.getByRole('radio', { name: 'Maroon' })).toBeFocused();
  await expect(shop).toHaveURL(/\?colour=maroon$/);
  await expect(shop).toHaveTitle(new RegExp(`^${title} — Maroon · `));
  await expect(sizes.getByRole('radio', { name: 'M, sold out' })).toBeDisabled();
  await expect(detail.getByTestId('product-detail-price')).toHaveText('USD 45.00');
  await shop.keyboard.press('ArrowLeft');
  await expect(colours.getByRole('radio', { name: 'Teal' })).toBeChecked();
  await expect(shop).toHaveURL(/\?colour=teal$/);

  // Teal M to the cart: the line is teal's (its own price), and the cart keeps the colour.
  await sizes.getByText('M', { exact: true }).click();
  await detail.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(shop.getByTestId('toast').filter({ hasText: 'Added to cart!' }).first()).toBeVisible();
  const stored = await shop.evaluate(() => localStorage.getItem('cart:v1'));
  expect(JSON.parse(stored ?? '[]')).toEqual([
    expect.objectContaining({ productId: created.id, colour: 'Teal', size: 'M', quantity: 1 }),
  ]);
  await shop.getByRole('button', { name: 'Cart, 1 item' }).click();
  const line = shop.getByRole('region', { name: 'Cart' }).getByTestId('cart-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(title);
  await expect(line).toContainText('M');
  await expect(line).toContainText('$52');
  await shop.keyboard.press('Escape');

  // Choosing colours replaced the address: Back goes to the page before the product.
  await shop.goBack();
  await expect(shop).toHaveURL(/\/about$/);

  // An unknown colour names none: the first colour with something left is chosen, the title is the product's.
  await shop.goto(`/product/${encodeURIComponent(created.id)}?colour=purple`);
  await expect(shop).toHaveTitle(new RegExp(`^${title} · `));
  await expect(colours.getByRole('radio', { name: 'Mint' })).toBeChecked();

  await adminCall(page, 'remove', { id: created.id });
});
