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

test("the app's script starts once the page's main picture has arrived, and never waits for it for long", async ({
  page,
  request,
}) => {
  const search = await request.get('/api/trpc/catalogue.search?input=%7B%22limit%22%3A1%7D');
  const [first] = (await search.json()).result.data.items as Array<{ id: string }>;
  const url = `/product/${first?.id}`;
  const res = await request.get(url);
  const html = await res.text();
  // The boot script is in the page, allowed by its hash (no file to fetch first, no 'unsafe-inline').
  expect(html).toMatch(
    /<script type="module" data-entry="\/assets\/index-[\w-]+\.js"[^>]*>[\s\S]+?<\/script>/,
  );
  expect(html).not.toContain('/boot.js');
  expect(String(res.headers()['content-security-policy'])).toMatch(/script-src 'self' 'sha256-[\w+/=]+'/);
  const mainImg = /<img [^>]*fetchpriority="high"[^>]*>/i.exec(html)?.[0] ?? '';
  const picture = / src="([^"]+)"/.exec(mainImg)?.[1] ?? '';
  expect(picture).not.toBe('');

  let pictureSentAt = 0;
  let entryAskedAt = 0;
  page.on('request', (r) => {
    if (/\/assets\/index-[\w-]+\.js$/.test(r.url()) && entryAskedAt === 0) entryAskedAt = Date.now();
  });
  await page.route(`**${picture}`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    pictureSentAt = Date.now();
    await route.continue();
  });
  await page.goto(url);
  expect(pictureSentAt).toBeGreaterThan(0);
  expect(entryAskedAt, 'the script is asked for after the picture').toBeGreaterThan(pictureSentAt);
  await page.unrouteAll();

  // A main picture that does not come holds the app back for a moment only (client/public/boot.js).
  let release = () => {};
  await page.route(`**${picture}`, (route) => {
    release = () => void route.continue().catch(() => {});
  });
  const asked = Date.now();
  // The navigation waits for the app to come alive (support/test.ts), not for the picture.
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  expect(Date.now() - asked, 'held back by the missing picture, up to its limit').toBeGreaterThanOrEqual(
    2000,
  );
  release();
});
