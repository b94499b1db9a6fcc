import { expect, test } from './support/test';

test('landing pages arrive rendered, with their data, and come alive without asking for it again', async ({
  page,
  request,
}) => {
  const home = await request.get('/');
  const html = await home.text();
  // The grid's markup and the answers it was made from are in the HTML itself.
  expect(html).toMatch(/<div id="root"><.+data-testid="product-card"/s);
  expect(html).toContain('<script type="application/json" id="query-state">');
  const etag = home.headers().etag;
  expect(etag).toBeTruthy();
  expect((await request.get('/', { headers: { 'if-none-match': String(etag) } })).status()).toBe(304);

  const search = await request.get('/api/trpc/catalogue.search?input=%7B%22limit%22%3A1%7D');
  const [first] = (await search.json()).result.data.items as Array<{ id: string; title: string }>;
  const productHtml = await (await request.get(`/product/${first?.id}`)).text();
  expect(productHtml).toMatch(
    new RegExp(`<h1[^>]*>${first?.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</h1>`),
  );

  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  const catalogueCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/trpc/catalogue.')) catalogueCalls.push(r.url());
  });
  await page.goto('/?size=M');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  expect(catalogueCalls).toEqual([]);
  // Hydrated: the filters respond, and a new filter asks the server.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('checkbox', { name: /^L\b/ }).first().check();
  await expect(page).toHaveURL(/size=L/);
  await expect.poll(() => catalogueCalls.length).toBeGreaterThan(0);
  expect(errors, 'no hydration mismatch or other console error').toEqual([]);
});

test('a shopper who scrolls the rendered page before it comes alive stays where they scrolled', async ({
  page,
}) => {
  // The shopper scrolls while the app's script is still on its way (as on a slow phone).
  await page.setViewportSize({ width: 1280, height: 700 });
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await page.evaluate(() => window.scrollTo(0, 900));
    await route.continue();
  });
  await page.goto('/');
  // Give any effect of the hydration a frame to move the page.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
  expect(await page.evaluate(() => window.scrollY)).toBe(900);

  // A navigation inside the app still starts the next page at the top.
  const lastCard = page.getByTestId('product-card').last().getByRole('heading').getByRole('link');
  await lastCard.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(900);
  await lastCard.click();
  await expect(page).toHaveURL(/\/product\//);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});
