// The plain Playwright test, not ./support/test: its navigations wait for the app to be hydrated, and these
// tests act on the page before it is.
import { expect, type Page, test } from '@playwright/test';

/**
 * Holds the app's scripts until `release` is called, so the page the server rendered sits un-hydrated for
 * as long as a test acts on it: a shopper on a slow phone, made certain.
 */
async function holdTheApp(page: Page): Promise<{ release: () => void }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/[^?]+\.js(\?.*)?$/, async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}

const hydrated = (page: Page) =>
  page.waitForFunction(() => document.documentElement.dataset.ready === 'true');

/** Asserts that the app has not taken the page over yet: what the test did was done before hydration. */
async function notHydratedYet(page: Page) {
  expect(await page.evaluate(() => document.documentElement.dataset.ready ?? null)).toBeNull();
}

test('a size picked on a card before the page is hydrated stays picked, and Add to Cart adds it', async ({
  page,
}) => {
  const { release } = await holdTheApp(page);
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  const card = page.getByTestId('product-card').first();
  const title = ((await card.getByRole('heading').textContent()) ?? '').trim();
  const sizes = card.getByLabel(`Size for ${title}`);
  const size = await sizes.locator('option:not([value=""]):not([disabled])').last().getAttribute('value');
  expect(size).toBeTruthy();
  await sizes.selectOption(size ?? '');
  await notHydratedYet(page);

  release();
  await hydrated(page);
  // Its picture has arrived and its card rendered again since (the reset came with such a render).
  await expect(card.getByRole('img').first()).toHaveAttribute('data-state', /loaded|failed/);
  await expect(sizes).toHaveValue(size ?? '');
  await card.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Added to cart!' }).first()).toBeVisible();
  await expect(card.getByText('Please select a size')).toHaveCount(0);
  await page.getByRole('button', { name: 'Cart, 1 item' }).click();
  await expect(page.getByRole('region', { name: 'Cart' }).getByTestId('cart-line')).toHaveText([
    // "Size M" for a product without colours, "Mint / M" for one with (decision 0036).
    new RegExp(`(Size | / )${size}\\b`),
  ]);
});

test('words typed, boxes ticked, a price typed and an order chosen before hydration all count after it', async ({
  page,
}) => {
  const { release } = await holdTheApp(page);
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  const filters = page.getByRole('complementary', { name: 'Filters' });
  const size = filters.getByRole('group', { name: 'Size' }).getByRole('checkbox').first();
  const sizeName = ((await size.evaluate((box: HTMLInputElement) => box.value)) ?? '').trim();
  await page.getByLabel('Search products').fill('kurta');
  await filters.getByRole('checkbox', { name: 'In stock only' }).check();
  await size.check();
  await filters.getByLabel('Maximum price').fill('500');
  await page.getByRole('combobox', { name: 'Sort' }).selectOption('price-asc');
  await notHydratedYet(page);

  release();
  await hydrated(page);
  // The search waits for typing to pause; everything else applies at once, together.
  await expect(page).toHaveURL(/[?&]q=kurta(&|$)/);
  const url = new URL(page.url());
  expect(url.searchParams.get('instock')).toBe('1');
  expect(url.searchParams.getAll('size')).toEqual([sizeName]);
  expect(url.searchParams.get('sort')).toBe('price-asc');
  await expect(page.getByLabel('Search products')).toHaveValue('kurta');
  await expect(filters.getByRole('checkbox', { name: 'In stock only' })).toBeChecked();
  await expect(
    filters.getByRole('group', { name: 'Size' }).getByRole('checkbox', { name: sizeName }),
  ).toBeChecked();
  await expect(page.getByRole('combobox', { name: 'Sort' })).toHaveValue('price-asc');
  // The price stays typed, to be applied with its button as ever.
  await expect(filters.getByLabel('Maximum price')).toHaveValue('500');
  await filters.getByRole('button', { name: 'Apply price' }).click();
  await expect(page).toHaveURL(/[?&]max=500/);
  await expect(page.getByTestId('result-count')).toHaveText(/\d+ products?/);
});

test('a size picked on a product page before it is hydrated stays picked, and Add to Cart adds it', async ({
  page,
}) => {
  await page.goto('/');
  const href = await page
    .getByTestId('product-card')
    .first()
    .getByRole('heading')
    .getByRole('link')
    .getAttribute('href');
  const { release } = await holdTheApp(page);
  await page.goto(href ?? '/', { waitUntil: 'domcontentloaded' });
  const detail = page.getByTestId('product-detail');
  const choices = detail.getByRole('group', { name: 'Size' }).locator('input[type="radio"]:not([disabled])');
  const size = await choices.last().getAttribute('value');
  await detail
    .locator('fieldset label')
    .filter({ hasText: new RegExp(`^${size}$`) })
    .click();
  await notHydratedYet(page);

  release();
  await hydrated(page);
  await expect(detail.getByRole('radio', { name: size ?? '', exact: true })).toBeChecked();
  await detail.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Added to cart!' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Cart, 1 item' }).click();
  await expect(page.getByRole('region', { name: 'Cart' }).getByTestId('cart-line')).toHaveText([
    // "Size M" for a product without colours, "Mint / M" for one with (decision 0036).
    new RegExp(`(Size | / )${size}\\b`),
  ]);
});
