import { payWithDemoForm } from './support/demo-payment';
import { expect, type Locator, type Page, test } from './support/test';

/**
 * Reflow (WCAG 1.4.10): every storefront page reads at 320 CSS px without scrolling sideways, and at the
 * common phone widths above it. One page is reused and only its viewport changes between widths, so the
 * whole catalogue is walked in one pass.
 */
const WIDTHS = [320, 375, 414] as const;

/** Each width at which the page is wider than the window, as "name at 320 px: 453 px wide". */
async function overflowsOf(page: Page, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    if (scrollWidth > innerWidth) found.push(`${name} at ${width} px: ${scrollWidth} px wide`);
  }
  return found;
}

/** The product pages the store lists in its sitemap: the whole catalogue, as a search engine finds it. */
async function productPaths(page: Page): Promise<string[]> {
  const xml = await (await page.request.get('/sitemap.xml')).text();
  const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname);
  return urls.filter((p) => p.startsWith('/product/'));
}

/** Whether an element shows all its text: not cut off sideways, nor clamped below its last line. */
function showsAllText(elements: Locator) {
  return elements.evaluateAll((els) =>
    els.map((el) => ({
      text: el.textContent ?? '',
      cut: el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight + 1,
    })),
  );
}

test('every product page fits 320, 375 and 414 px wide, its size table scrolling in its own box', async ({
  page,
}) => {
  const paths = await productPaths(page);
  // The demo catalogue: a store with fewer products would not be the one the reflow report was about.
  expect(paths.length).toBeGreaterThanOrEqual(24);
  // About a second per product, three on a loaded 2-core machine.
  test.setTimeout(30_000 + paths.length * 3_000);

  const overflows: string[] = [];
  const tables: string[] = [];
  let scrolledByKeyboard = false;
  for (const path of paths) {
    await page.setViewportSize({ width: WIDTHS[0], height: 800 });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // At 320 px a table wider than the phone scrolls inside its box, which a keyboard can reach, with a shadow
    // at the edge it scrolls towards.
    const table = page.getByRole('region', { name: 'Size Details' });
    if ((await table.count()) > 0) {
      const box = await table.evaluate((el) => ({
        tabIndex: el.tabIndex,
        wide: el.scrollWidth > el.clientWidth,
        cue: getComputedStyle(el).backgroundImage.includes('radial-gradient'),
      }));
      expect(box, `the Size Details box of ${path}`).toEqual({ tabIndex: 0, wide: box.wide, cue: true });
      tables.push(path);
      if (box.wide && !scrolledByKeyboard) {
        await table.focus();
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => table.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
        scrolledByKeyboard = true;
      }
    }

    overflows.push(...(await overflowsOf(page, path)));
  }
  expect(overflows, 'pages wider than the window').toEqual([]);
  expect(tables.length, 'demo products with a Size Details table').toBeGreaterThan(0);
  expect(scrolledByKeyboard, 'a Size Details table wider than 320 px, scrolled by keyboard').toBe(true);
});

test('every other storefront page fits 320, 375 and 414 px wide, and no name is cut short', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const overflows: string[] = [];
  const check = async (name: string) => {
    overflows.push(...(await overflowsOf(page, name)));
  };
  await page.setViewportSize({ width: WIDTHS[0], height: 800 });

  await page.goto('/');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  await check('the home page');
  // The store's name in the header wraps rather than ending in "…" on the narrowest phone.
  await page.setViewportSize({ width: WIDTHS[0], height: 800 });
  const storeName = await showsAllText(page.getByRole('banner').getByRole('link', { name: /, home$/ }));
  expect(storeName).toHaveLength(1);
  expect
    .soft(storeName, 'the store name in the header at 320 px')
    .toEqual([{ text: storeName[0]?.text, cut: false }]);

  await page.goto('/?q=silk');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  await check('a search listing (/?q=silk)');

  await page.goto('/?size=M');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  await check('a filtered listing (/?size=M)');

  for (const [path, heading] of [
    ['/about', 'Version Information'],
    ['/accessibility', 'Accessibility statement'],
    ['/checkout/cancel', 'Payment Cancelled'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    await check(path);
  }

  // The not-found page twice: while its quote is still on its way (held back here, so that state is
  // measured every time) and once it has come.
  let releaseQuote = () => {};
  const quoteHeld = new Promise<void>((resolve) => {
    releaseQuote = resolve;
  });
  const quoteCall = (url: URL) => url.pathname.includes('site.randomQuote');
  await page.route(quoteCall, async (route) => {
    await quoteHeld;
    await route.continue();
  });
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Oops! Page Not Found' })).toBeVisible();
  await expect(page.locator('figure .skeleton')).toBeVisible();
  await check('/no/such/page, its quote loading');
  releaseQuote();
  await expect(page.locator('figure .skeleton')).toHaveCount(0);
  await check('/no/such/page');
  await page.unroute(quoteCall);

  // The product with the longest name, in the cart: its name wraps in the cart panel rather than being cut.
  const input = encodeURIComponent(JSON.stringify({ limit: 48 }));
  const listing = (await (await page.request.get(`/api/trpc/catalogue.search?input=${input}`)).json()) as {
    result: { data: { items: Array<{ id: string; title: string; sizes: string[] }> } };
  };
  const longest = listing.result.data.items
    .filter((p) => p.sizes.length > 0)
    .sort((a, b) => b.title.length - a.title.length)[0];
  if (!longest) throw new Error('The demo catalogue has no product with sizes');
  await page.goto(`/product/${encodeURIComponent(longest.id)}`);
  const detail = page.getByTestId('product-detail');
  await detail.locator('fieldset label:not(.cursor-not-allowed)').first().click();
  await detail.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByRole('button', { name: 'Cart, 1 item' }).click();
  const panel = page.getByRole('region', { name: 'Cart' });
  await expect(panel.getByTestId('cart-line')).toContainText(longest.title);
  await check('the open cart');
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    expect
      .soft(await showsAllText(panel.getByTestId('cart-line').getByText(longest.title, { exact: true })), {
        message: `the cart line's title at ${width} px`,
      })
      .toEqual([{ text: longest.title, cut: false }]);
  }

  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-total')).toHaveText(/^\$/);
  await check('/checkout with an item');

  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page).toHaveURL(/\/testpayment\?session_id=demo_/);
  await expect(page.getByRole('form', { name: 'Demo payment' }).getByLabel('Country')).toBeEnabled();
  await check('/testpayment');

  await payWithDemoForm(page);
  await expect(page.getByTestId('order-number')).toHaveText(/^Order #\d+$/);
  await check('/checkout/success');

  await page.getByRole('link', { name: 'View your order' }).click();
  await expect(page).toHaveURL(/\/order\/[^/?]+\?token=.+/);
  await expect(page.getByTestId('order-line').first()).toBeVisible();
  await check('the order page');

  expect(overflows, 'pages wider than the window').toEqual([]);
});
