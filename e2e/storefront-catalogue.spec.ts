import { expect, type Page, test } from './support/test';

const resultCount = (page: Page) => page.getByTestId('result-count');
const countOf = async (page: Page) =>
  Number(/^(\d+)/.exec((await resultCount(page).textContent()) ?? '')?.[1] ?? NaN);
const filters = (page: Page) => page.getByRole('complementary', { name: 'Filters' });

test('search narrows the catalogue, lives in the URL, and a shared link shows the same', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await expect(resultCount(page)).toHaveText(/^\d+ products$/);
  const all = await countOf(page);
  const box = page.getByRole('searchbox', { name: 'Search products' });
  // One letter is not searched (decision 0024): the box says so, and the listing stays whole.
  await box.fill('l');
  await expect(page.getByTestId('search-hint')).toHaveText('Type at least two letters to search.');
  await expect(box).toHaveAccessibleDescription('Type at least two letters to search.');
  await expect(page).toHaveURL(/\?q=l$/);
  await expect(resultCount(page)).toHaveText(`${all} products`);
  await box.fill('lehenga');
  await expect(page.getByTestId('search-hint')).toHaveText('');
  await expect(page).toHaveURL(/\?q=lehenga$/);
  await expect.poll(() => countOf(page)).toBeLessThan(all);
  const found = await countOf(page);
  expect(found).toBeGreaterThan(0);
  const titles = await page.getByTestId('product-card').getByRole('heading').allTextContents();
  expect(titles.length).toBe(found);
  expect(titles.some((t) => /lehenga/i.test(t))).toBe(true);

  const shared = await context.newPage();
  await shared.goto(page.url());
  await expect(shared.getByRole('searchbox', { name: 'Search products' })).toHaveValue('lehenga');
  await expect(resultCount(shared)).toHaveText(`${found} products`);
  expect(await shared.getByTestId('product-card').getByRole('heading').allTextContents()).toEqual(titles);
});

test('filters combine (OR within a group, AND across), show counts, and Back restores the view', async ({
  page,
}) => {
  await page.goto('/');
  await expect(resultCount(page)).toHaveText(/^\d+ products$/);
  const all = await countOf(page);
  const makers = filters(page).getByRole('group', { name: 'Manufacturer' });
  const firstMaker = makers.getByRole('checkbox').first();
  const makerName = (await makers.locator('label').first().textContent()) ?? '';
  const makerCount = Number(await makers.locator('li').first().locator('span[aria-hidden]').textContent());
  await firstMaker.check();
  await expect(page).toHaveURL(new RegExp(`brand=${encodeURIComponent(makerName).replace(/%20/g, '\\+')}`));
  await expect(resultCount(page)).toHaveText(`${makerCount} ${makerCount === 1 ? 'product' : 'products'}`);

  // The size counts now speak for this maker only; picking one gives exactly that many.
  const sizes = filters(page).getByRole('group', { name: 'Size' });
  const sizeRow = sizes
    .locator('li')
    .filter({ has: page.getByRole('checkbox', { disabled: false }) })
    .first();
  const sizeCount = Number(await sizeRow.locator('span[aria-hidden]').textContent());
  await sizeRow.getByRole('checkbox').check();
  await expect(page).toHaveURL(/size=/);
  await expect(resultCount(page)).toHaveText(`${sizeCount} ${sizeCount === 1 ? 'product' : 'products'}`);

  // A second maker widens (OR within the group).
  const secondMaker = makers.getByRole('checkbox').nth(1);
  if (await secondMaker.isEnabled()) {
    await secondMaker.check();
    await expect.poll(() => countOf(page)).toBeGreaterThanOrEqual(sizeCount);
    await page.goBack();
  }
  await page.goBack();
  await expect(resultCount(page)).toHaveText(`${makerCount} ${makerCount === 1 ? 'product' : 'products'}`);
  await expect(sizeRow.getByRole('checkbox')).not.toBeChecked();
  await page.goBack();
  await expect(resultCount(page)).toHaveText(`${all} products`);
  await expect(firstMaker).not.toBeChecked();
});

test('a search that matches nothing says so and offers to clear the filters', async ({ page }) => {
  await page.goto('/?q=zzqqxx');
  await expect(page.getByText('No products match')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('product-card').first()).toBeVisible();
});

test('sorting by price orders the cards by price', async ({ page }) => {
  await page.goto('/?sort=price-asc');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  const prices = (await page.getByTestId('product-price').allTextContents()).map((t) =>
    Number(t.replace(/[^0-9.]/g, '')),
  );
  expect(prices.length).toBeGreaterThan(5);
  expect([...prices].sort((a, b) => a - b)).toEqual(prices);
});

test('on a phone the filters open in a drawer', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(filters(page)).toBeHidden();
  await page.getByRole('button', { name: /^Filters/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Filters' });
  await expect(drawer).toBeVisible();
  await drawer.getByRole('group', { name: 'Size' }).getByRole('checkbox').first().check();
  await expect(page).toHaveURL(/size=/);
  await drawer.getByRole('button', { name: /^Show \d+ results?$/ }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible();
});

test('a product page shows related products, and /products/:slug redirects to it', async ({ page }) => {
  await page.goto('/');
  const card = page.getByTestId('product-card').first();
  const title = (await card.getByRole('heading').textContent()) ?? '';
  await card.getByRole('heading').getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  const productUrl = page.url();
  await expect(
    page.getByRole('heading', { name: /^(Related Products|Similar Products|You May Also Like)$/ }),
  ).toBeVisible();
  await expect(page.getByRole('table')).toBeVisible(); // size details

  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  await page.goto(`/products/${slug}`);
  await expect(page).toHaveURL(productUrl);
  await page.goto('/products/no-such-product-anywhere');
  await expect(page.getByRole('heading', { name: 'Oops! Page Not Found' })).toBeVisible();
});

test('the product page HTML carries its title and JSON-LD without JavaScript', async ({ page, request }) => {
  await page.goto('/');
  const href = (await page.getByTestId('product-card').first().getByRole('link').getAttribute('href')) ?? '';
  const title = (await page.getByTestId('product-card').first().getByRole('heading').textContent()) ?? '';
  const res = await request.get(href);
  expect(res.status()).toBe(200);
  const html = await res.text();
  expect(html).toContain(`<title>${title.replace(/&/g, '&amp;')} · `);
  const ld = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1];
  // A product with colours is a ProductGroup of its variants (decision 0036), one without a Product.
  expect(JSON.parse(ld ?? '{}')).toMatchObject({
    '@type': expect.stringMatching(/^Product(Group)?$/),
    name: title,
  });
});

test('About shows the store, its version and credits', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { name: 'Version Information' })).toBeVisible();
  await expect(page.getByRole('main').getByText(/^Version 1\.0\.0/)).toBeVisible();
  await expect(page.getByRole('main').getByText('production')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Credits' })).toBeVisible();
});
