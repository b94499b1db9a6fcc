import { type APIRequestContext, test as plainTest } from '@playwright/test';
import { signIn } from './support/admin';
import { expect, type Page, test } from './support/test';

type Card = {
  id: string;
  title: string;
  description: string;
  sizes: string[];
  image: { url: string } | null;
};

async function firstProducts(request: APIRequestContext, limit: number): Promise<Card[]> {
  const input = encodeURIComponent(JSON.stringify({ limit }));
  const res = await request.get(`/api/trpc/catalogue.search?input=${input}`);
  return (await res.json()).result.data.items as Card[];
}

/**
 * Holds the app's script back until every picture the page asked for at once has finished (loaded or failed),
 * as on a phone where images win the race: their load events fire before React takes over the page.
 */
async function holdScriptUntilPicturesSettle(page: Page): Promise<void> {
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await page
      .waitForFunction(
        () => [...document.images].every((img) => img.complete || img.loading === 'lazy'),
        null,
        {
          timeout: 5000,
        },
      )
      .catch(() => undefined);
    // Lazy pictures in view start once layout is done: give them time to finish too.
    await page.waitForTimeout(600);
    await route.continue();
  });
}

/**
 * Every card picture whose box is in the viewport: loaded and at full opacity; with a script, the pulsing
 * placeholder behind it is gone too (without one it stays behind the picture, covered).
 */
async function expectPicturesInViewVisible(page: Page, min: number, scripted = true): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate((scripted) => {
          const inView = [
            ...document.querySelectorAll<HTMLImageElement>('[data-testid="product-card"] img'),
          ].filter((img) => {
            const r = img.getBoundingClientRect();
            return r.bottom > 0 && r.top < window.innerHeight && r.width > 0;
          });
          return {
            inView: inView.length,
            hidden: inView
              .filter(
                (img) =>
                  !img.complete ||
                  img.naturalWidth === 0 ||
                  getComputedStyle(img).opacity !== '1' ||
                  (scripted && img.closest('[data-testid="product-card"]')?.querySelector('.skeleton')),
              )
              .map((img) => img.currentSrc || img.src),
          };
        }, scripted),
      { message: 'every card picture in view shows once loaded' },
    )
    .toEqual({ inView: expect.any(Number), hidden: [] });
  const count = await page.evaluate(
    () =>
      [...document.querySelectorAll('[data-testid="product-card"] img')].filter((img) => {
        const r = img.getBoundingClientRect();
        return r.bottom > 0 && r.top < window.innerHeight;
      }).length,
  );
  expect(count).toBeGreaterThanOrEqual(min);
}

test.describe('a first visit to a landing page', () => {
  // Three pages, each held back until its pictures settle: slower than a plain visit on a busy machine.
  test.describe.configure({ timeout: 60_000 });
  test('shows every card picture in view, on the home page, a filtered listing and a product page', async ({
    page,
    request,
  }) => {
    // Tall enough that lazy cards (from the fourth) and a product's related products are in view.
    await page.setViewportSize({ width: 1280, height: 2600 });
    await holdScriptUntilPicturesSettle(page);

    await page.goto('/');
    await expectPicturesInViewVisible(page, 6);

    await page.goto('/?size=M');
    await expectPicturesInViewVisible(page, 4);

    const [product] = await firstProducts(request, 1);
    await page.goto(`/product/${product?.id}`);
    await expect(
      page.getByRole('heading', { name: /Related Products|Similar Products|You May Also Like/ }),
    ).toBeVisible();
    await expectPicturesInViewVisible(page, 2);
  });

  test('a picture that fails to load shows the store placeholder, not a broken image', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 1280, height: 2600 });
    const cards = await firstProducts(request, 6);
    // One eager picture (the second card) and one lazy one (the fifth) fail.
    const failing = [cards[1], cards[4]].map((c) => c?.image?.url ?? '').filter(Boolean);
    expect(failing).toHaveLength(2);
    await page.route(
      (url) => failing.some((f) => url.pathname === new URL(f, url).pathname),
      (route) => route.fulfill({ status: 404, body: 'gone' }),
    );
    await holdScriptUntilPicturesSettle(page);
    await page.goto('/');

    for (const index of [1, 4]) {
      const img = page.getByTestId('product-card').nth(index).locator('img');
      await expect(img).toHaveAttribute('src', '/placeholder.svg');
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
      await expect.poll(() => img.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    }
  });
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the header stays on one line, the search placeholder fits, and the first products show in the first screen', async ({
    page,
  }) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    for (const link of [
      header.getByRole('link', { name: /, home$/ }),
      header.getByRole('link', { name: /Special Order Request/ }),
    ]) {
      const oneLine = await link.evaluate((el) => {
        const style = getComputedStyle(el);
        const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.5;
        const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
        return el.getBoundingClientRect().height - padding < line * 1.5;
      });
      expect(oneLine, `${await link.textContent()} is on one line`).toBe(true);
    }
    const search = page.getByRole('searchbox', { name: 'Search products' });
    const fits = await search.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const ctx = document.createElement('canvas').getContext('2d');
      if (!ctx) return false;
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room =
        input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return ctx.measureText(input.placeholder).width <= room;
    });
    expect(fits, 'the whole search placeholder is readable').toBe(true);

    const firstPicture = await page.getByTestId('product-card').first().locator('img').boundingBox();
    expect(firstPicture).not.toBeNull();
    // At least half of the first product's picture is in the first screen.
    expect((firstPicture?.y ?? 9999) + (firstPicture?.height ?? 0) / 2).toBeLessThan(844);
  });

  test('checkout lines give the product title room to read', async ({ page, request }) => {
    const [product] = await firstProducts(request, 1);
    await page.goto('/');
    await page.evaluate((line) => localStorage.setItem('cart:v1', JSON.stringify([line])), {
      productId: product?.id,
      size: product?.sizes[0] ?? null,
      quantity: 1,
    });
    await page.goto('/checkout');
    const line = page.getByTestId('checkout-line').first();
    const title = line.getByText(product?.title ?? '', { exact: true });
    await expect(title).toBeVisible();
    const box = await title.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(150);
    // Nothing in the line runs off the screen.
    const right = await line.evaluate((li) =>
      Math.max(...[...li.querySelectorAll('*')].map((el) => el.getBoundingClientRect().right)),
    );
    expect(right).toBeLessThanOrEqual(390);
  });

  test('the admin log table shows its Details column', async ({ page }) => {
    await signIn(page);
    await page.goto('/admin/logs');
    const details = page.getByTestId('log-table').getByRole('columnheader', { name: 'Details' });
    await expect(details).toBeVisible();
    const box = await details.boundingBox();
    expect((box?.x ?? 9999) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    const show = page.getByTestId('log-row').first().getByRole('button', { name: 'Show' });
    const showBox = await show.boundingBox();
    expect((showBox?.x ?? 9999) + (showBox?.width ?? 0)).toBeLessThanOrEqual(390);
  });
});

test('/success offers Return to Shop, /checkout/success Continue Shopping', async ({ page }) => {
  await page.goto('/success?session_id=cs_unknown');
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Shop' })).toHaveAttribute('href', '/');
  await expect(page.getByRole('link', { name: 'Continue Shopping' })).toHaveCount(0);
  await page.goto('/checkout/success?session_id=cs_unknown');
  await expect(page.getByRole('link', { name: 'Continue Shopping' })).toBeVisible();
});

test('title, description and canonical link follow the route inside the store', async ({ page, request }) => {
  const [first, second] = await firstProducts(request, 2);
  const head = () =>
    page.evaluate(() => ({
      title: document.title,
      description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? null,
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
      canonicalLinks: document.querySelectorAll('link[rel="canonical"]').length,
    }));
  await page.goto(`/product/${first?.id}`);
  const origin = new URL(page.url()).origin;
  expect((await head()).canonical).toBe(`${origin}/product/${first?.id}`);

  // Home, by the store name in the header.
  await page
    .getByRole('banner')
    .getByRole('link', { name: /, home$/ })
    .click();
  await expect.poll(async () => (await head()).canonical).toBe(`${origin}/`);
  const home = await head();
  expect(home.title).not.toContain(first?.title ?? '');
  expect(home.description).not.toBe(first?.description);

  // Another product, by its card.
  await page.getByTestId('product-card').nth(1).getByRole('heading').getByRole('link').click();
  await expect.poll(async () => (await head()).canonical).toBe(`${origin}/product/${second?.id}`);
  const product = await head();
  expect(product.title).toContain(second?.title ?? '');
  expect(product.description).toContain((second?.description ?? '').replace(/\s+/g, ' ').trim().slice(0, 40));
  expect(product.canonicalLinks).toBe(1);

  // A page with no canonical address of its own drops the link rather than keep the last one.
  await page.goto('/about');
  await page.evaluate(() => window.history.pushState({}, '', '/checkout/cancel'));
  await page.evaluate(() => window.dispatchEvent(new PopStateEvent('popstate')));
  await expect(page.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible();
  await expect.poll(async () => (await head()).canonicalLinks).toBe(0);
});

// Playwright's own test: the store's waits for the app to come alive, which never happens here.
plainTest.describe('without JavaScript', () => {
  plainTest.use({ javaScriptEnabled: false });

  plainTest(
    'the 404 page and an unknown product page are rendered by the server, with status 404',
    async ({ page }) => {
      const missing = await page.goto('/no-such-page/here');
      expect(missing?.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Oops! Page Not Found' })).toBeVisible();
      await expect(page.getByText('This store needs JavaScript')).toHaveCount(0);

      const product = await page.goto('/product/plink_does_not_exist');
      expect(product?.status()).toBe(404);
      await expect(page.getByText('Product not found')).toBeVisible();
      await expect(page.getByText('This store needs JavaScript')).toHaveCount(0);
    },
  );

  plainTest('card pictures show without a script to fade them in', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 2600 });
    await page.goto('/');
    await expectPicturesInViewVisible(page, 6, false);
  });
});
