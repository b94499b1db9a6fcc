import type { Browser } from '@playwright/test';
import { placeDemoOrder } from './support/demo-order';
import { expect, test } from './support/test';

// One paid demo order, then a fresh load of each page; a busy 2-core machine makes each step slow.
test.describe.configure({ timeout: 180_000 });

/** Lighthouse's phone (its mobile emulation): the width the shifts were measured at. */
const PHONE = { width: 412, height: 823 };

/** The target for every storefront page (Lighthouse and web-vitals call under 0.1 "good"). */
const MAX_CLS = 0.05;

/** How late every API answer comes. */
const API_DELAY_MS = 400;

type Shift = { value: number; at: number; sources: string[] };

declare global {
  interface Window {
    __shifts?: Shift[];
  }
}

/**
 * Installed before any of the page's own scripts: every layout shift the browser reports from the first
 * paint on, with the elements that moved, except those right after the person's own input (none here).
 */
function recordShifts(): void {
  const shifts: Shift[] = [];
  window.__shifts = shifts;
  const describe = (node: Node | null | undefined): string => {
    if (!(node instanceof Element)) return node?.nodeName ?? '?';
    const id = node.id ? `#${node.id}` : '';
    const testId = node.getAttribute('data-testid');
    return `${node.tagName.toLowerCase()}${id}${testId ? `[${testId}]` : ''}.${String(node.className).split(' ').slice(0, 3).join('.')}`;
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<
      PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null }> }
    >) {
      if (entry.hadRecentInput) continue;
      shifts.push({
        value: entry.value,
        at: Math.round(entry.startTime),
        sources: (entry.sources ?? []).map((s) => describe(s.node)),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/** CLS as web-vitals counts it: the largest session window (gaps under 1 s, at most 5 s long). */
function cumulativeLayoutShift(shifts: Shift[]): number {
  let largest = 0;
  let current = 0;
  let first = 0;
  let last = 0;
  for (const s of shifts) {
    if (current > 0 && s.at - last < 1000 && s.at - first < 5000) current += s.value;
    else {
      current = s.value;
      first = s.at;
    }
    last = s.at;
    largest = Math.max(largest, current);
  }
  return Number(largest.toFixed(3));
}

/** A first visit to `path` on a phone, with `cart` (the cart's saved lines) in its storage when given. */
async function measure(browser: Browser, baseURL: string, path: string, cart?: string): Promise<number> {
  const context = await browser.newContext({ baseURL, viewport: PHONE, isMobile: true, hasTouch: true });
  try {
    await context.addInitScript(recordShifts);
    if (cart) await context.addInitScript((saved) => localStorage.setItem('cart:v1', saved), cart);
    const page = await context.newPage();
    // Every call the page makes answers late, as on a slow phone network or a busy server, so each page is
    // measured through its loading state (its skeletons) and not only when its data beats the first paint.
    await page.route('**/trpc/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, API_DELAY_MS));
      await route.continue();
    });
    await page.goto(path);
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
    await page.waitForLoadState('networkidle');
    await expect(page.locator('.skeleton:not(.card-picture-skeleton):visible')).toHaveCount(0);
    // Anything the page still moves after its data is in counts too; every shift is printed, to say which.
    await page.waitForTimeout(1000);
    const shifts = await page.evaluate(() => window.__shifts ?? []);
    const cls = cumulativeLayoutShift(shifts);
    if (cls > 0) console.log(`${path}: CLS ${cls}`, JSON.stringify(shifts));
    return cls;
  } finally {
    await context.close();
  }
}

test('no storefront page shifts its layout as it loads on a phone (CLS < 0.05 at 412 px)', async ({
  page,
  browser,
  baseURL,
}) => {
  const order = await placeDemoOrder(page);
  // The order's own line, as the shopper's cart held it: /checkout with something to review.
  await page.goto(`/product/${encodeURIComponent(order.productId)}`);
  const detail = page.getByTestId('product-detail');
  await detail.locator('fieldset label').first().click();
  await detail.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
  const cart = (await page.evaluate(() => localStorage.getItem('cart:v1'))) ?? '';
  expect(cart).toContain(order.productId);

  const pages: Array<[string, string, string?]> = [
    ['home', '/'],
    ['product', `/product/${encodeURIComponent(order.productId)}`],
    ['checkout', '/checkout', cart],
    ['test payment', order.paymentPath],
    ['payment success', order.successPath],
    ['payment cancelled', '/checkout/cancel'],
    ['order page', order.orderPath],
  ];
  const measured: Record<string, number> = {};
  for (const [name, path, saved] of pages)
    measured[name] = await measure(browser, baseURL ?? '', path, saved);
  console.log('CLS at 412 px:', JSON.stringify(measured));
  const over = Object.fromEntries(Object.entries(measured).filter(([, cls]) => cls >= MAX_CLS));
  expect(over, `pages at or over CLS ${MAX_CLS}`).toEqual({});
});
