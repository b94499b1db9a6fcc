import { expect, type Page, test } from './support/test';

/** Collects console errors (a CSP violation shows up here) so each test can assert the page ran cleanly. */
function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

test('the home page shows the store, its header, the demo catalogue and the footer', async ({ page }) => {
  const errors = watchConsole(page);
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);

  const header = page.getByRole('banner');
  const storeLink = header.getByRole('link', { name: /, home$/ });
  await expect(storeLink).toHaveAttribute('href', '/');
  await expect(storeLink).not.toHaveText('');
  const specialOrder = header.getByRole('link', { name: /Special Order Request/ });
  await expect(specialOrder).toHaveAttribute('target', '_blank');
  await expect(specialOrder).toHaveAttribute('rel', /noopener/);
  await expect(header.getByRole('button', { name: /^Cart, 0 items$/ })).toBeVisible();

  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the store' })).toBeVisible();
  await expect(page.getByText('Discover our latest collection of premium Pakistani fashion')).toBeVisible();

  const cards = page.getByTestId('product-card');
  await expect(cards).toHaveCount(24);
  await expect(cards.first().getByRole('img')).toHaveJSProperty('complete', true);
  await expect(cards.first().getByTestId('product-price')).toHaveText(/^\$\d/);

  const footer = page.getByRole('contentinfo');
  await expect(footer.getByText(/reseller/i)).toBeVisible();
  const contact = footer.getByRole('link', { name: /Contact Us/ });
  await expect(contact).toHaveAttribute('target', '_blank');
  await expect(footer.getByText(/Version 1\.0\.0/)).toBeVisible();
  await expect(footer.getByText(/Last updated/)).toBeVisible();

  await page.getByRole('button', { name: 'Load more' }).click();
  await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(36);
  expect(errors).toEqual([]);
});

test('the grid has 1, 2 and 3 columns on small, medium and large screens', async ({ page }) => {
  const columns = async () =>
    page
      .getByTestId('product-grid')
      .evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').filter(Boolean).length);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  expect(await columns()).toBe(1);
  await page.setViewportSize({ width: 800, height: 900 });
  expect(await columns()).toBe(2);
  await page.setViewportSize({ width: 1280, height: 900 });
  expect(await columns()).toBe(3);
});

test('a shopper opens a product, picks a size and the cart badge counts it', async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto('/');
  const card = page.getByTestId('product-card').first();
  const title = (await card.getByRole('heading').textContent()) ?? '';
  await card.getByRole('img').click();
  await expect(page).toHaveURL(/\/product\/plink_/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  const detail = page.getByTestId('product-detail');
  await expect(detail.getByTestId('product-detail-price')).toHaveText(/^USD \d+\.\d{2}$/);

  const add = detail.getByRole('button', { name: 'Add to Cart' });
  await expect(add).toBeDisabled();
  await detail.locator('fieldset label').first().click();
  await expect(add).toBeEnabled();
  await add.click();
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a card asks for a size before adding to the cart', async ({ page }) => {
  await page.goto('/');
  const card = page.getByTestId('product-card').first();
  await card.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(card.getByRole('alert')).toHaveText('Please select a size');
  await expect(page).toHaveURL(/\/$/);
  await card.getByRole('combobox').selectOption({ index: 1 });
  await expect(card.getByRole('alert')).toHaveCount(0);
  await card.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
});

test('an unknown path answers 404 and shows the 404 page with a quote', async ({ page }) => {
  const response = await page.goto('/this/page/does-not-exist');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Oops! Page Not Found' })).toBeVisible();
  await expect(page.locator('blockquote')).not.toBeEmpty();
  await expect(
    page.getByText("The page you're looking for might have been moved, deleted, or never existed."),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Go Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('product-card').first()).toBeVisible();
});
