import { expect, type Page, test } from './support/test';

const storeLink = (page: Page) => page.getByRole('banner').getByRole('link', { name: /, home$/ });
const storeNameOf = async (page: Page) =>
  ((await storeLink(page).getAttribute('aria-label')) ?? '').replace(/, home$/, '');

test('a search and a filter retitle the listing as they change, and the home page welcomes again', async ({
  page,
}) => {
  await page.goto('/');
  const homeTitle = await page.title();
  const store = await storeNameOf(page);
  expect(store).not.toBe('');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Welcome to the store');

  await page.getByRole('searchbox', { name: 'Search products' }).fill('lehenga');
  await expect(page).toHaveURL(/\?q=lehenga$/);
  await expect(page).toHaveTitle(`Search: lehenga · ${store}`);
  await expect(heading).toHaveText('Search: lehenga');

  const sizes = page.getByRole('complementary', { name: 'Filters' }).getByRole('group', { name: 'Size' });
  const sizeRow = sizes
    .locator('li')
    .filter({ has: page.getByRole('checkbox', { disabled: false }) })
    .first();
  const size = ((await sizeRow.locator('label').textContent()) ?? '').trim();
  await sizeRow.getByRole('checkbox').check();
  await expect(page).toHaveURL(/size=/);
  await expect(page).toHaveTitle(`Search: lehenga · size ${size} · ${store}`);
  await expect(heading).toHaveText(`Search: lehenga · size ${size}`);
  // Still one h1: the listing's heading replaces the welcome, it is not added beside it.
  await expect(heading).toHaveCount(1);

  // Back takes the filter away, and the title with it.
  await page.goBack();
  await expect(page).toHaveTitle(`Search: lehenga · ${store}`);
  await expect(heading).toHaveText('Search: lehenga');

  await storeLink(page).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page).toHaveTitle(homeTitle);
  await expect(heading).toHaveText('Welcome to the store');
});

test('a missing product is a page of its own that stays put: a heading, a search, the way home', async ({
  page,
}) => {
  // The page's clock is the test's: every timer the page sets can be run at once, however busy the machine.
  await page.clock.install();
  const response = await page.goto('/product/does-not-exist');
  expect(response?.status()).toBe(404);
  const heading = page.getByRole('heading', { level: 1, name: 'Product not found' });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await expect(page).toHaveTitle(/^Product not found · /);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');

  // Well past any "redirecting shortly": nobody moves the shopper on.
  await page.clock.runFor(10_000);
  await expect(page).toHaveURL(/\/product\/does-not-exist$/);
  await expect(heading).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');

  const search = page.getByRole('search').getByRole('searchbox', { name: 'Search products' });
  await search.fill('lehenga');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/\?q=lehenga$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search: lehenga');
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
});

test('a product that goes missing while the store is open shows the same page', async ({ page }) => {
  await page.clock.install();
  await page.goto('/');
  await page.evaluate(() => {
    window.history.pushState({}, '', '/product/gone-since-the-listing');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  const heading = page.getByRole('heading', { level: 1, name: 'Product not found' });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await expect(page).toHaveTitle(/^Product not found · /);
  await page.clock.runFor(10_000);
  await expect(page).toHaveURL(/\/product\/gone-since-the-listing$/);
  await page.getByRole('link', { name: 'Go Home' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to the store');
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
});
