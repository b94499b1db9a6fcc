import { placeDemoOrder } from './support/demo-order';
import { expect, test } from './support/test';

test.describe.configure({ timeout: 120_000 });

/** The pages of a PDF Chromium made: each page is one object of type /Page (the tree's root is /Pages). */
function pdfPageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

test("the shopper's order page prints on one page, without the store's header, cart and footer", async ({
  page,
}) => {
  // A typical order: two sizes of one dress, shipped to one address.
  const order = await placeDemoOrder(page, 2);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(order.orderPath);
  await expect(page.getByTestId('order-line')).toHaveCount(2);
  // The server's page is the one the app takes over: no hydration mismatch (React says so on the console).
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
  // On screen the page has the store around it.
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();

  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('heading', { level: 1, name: /^Order #\d+$/ })).toBeVisible();
  await expect(page.getByTestId('order-line')).toHaveCount(2);
  await expect(page.locator('address')).toBeVisible();
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('button', { name: /^Cart/ })).toBeHidden();
  await expect(page.getByRole('contentinfo')).toBeHidden();
  await expect(page.getByText(/^Version /)).toBeHidden();
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeHidden();

  // page.pdf prints with the print styles, as the browser's own Print does (A4, its default margins).
  const pdf = await page.pdf({ format: 'A4' });
  expect(pdfPageCount(pdf)).toBe(1);
});

test('the order page reads whole without JavaScript, and a wrong link says not found (404)', async ({
  page,
  browser,
  baseURL,
}) => {
  const order = await placeDemoOrder(page, 2);
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  try {
    const noScript = await context.newPage();
    const right = await noScript.goto(order.orderPath);
    expect(right?.status()).toBe(200);
    expect(right?.headers()['cache-control']).toBe('no-store');
    await expect(noScript.getByRole('heading', { level: 1, name: /^Order #\d+$/ })).toBeVisible();
    await expect(noScript).toHaveTitle(/^Order #\d+ · /);
    await expect(noScript.getByRole('list', { name: 'Order progress' })).toBeVisible();
    await expect(noScript.getByTestId('order-line')).toHaveCount(2);
    await expect(noScript.locator('address')).toBeVisible();
    await expect(noScript.getByText('This store needs JavaScript')).toHaveCount(0);

    const wrong = await noScript.goto(order.orderPath.replace(/token=[^&]+/, 'token=not-the-token'));
    expect(wrong?.status()).toBe(404);
    await expect(noScript.getByRole('heading', { level: 1, name: 'Order not found' })).toBeVisible();
    await expect(noScript.getByTestId('order-line')).toHaveCount(0);
  } finally {
    await context.close();
  }
});
