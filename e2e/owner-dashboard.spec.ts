import { openAdminTab, signIn, staffEmail, staffPassword } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { placeDemoOrder } from './support/demo-order';
import { expect, type Page, test } from './support/test';

test.describe.configure({ timeout: 120_000 });

/** A query as the signed-in page's own client sends it (the session cookie comes with the page's context). */
async function adminQuery(
  page: Page,
  path: string,
  input: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await page.request.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`);
  return { status: res.status(), body: await res.json() };
}

/** A whole number out of a figure as shown ("$1,234", "12"). */
const count = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

// Other journeys place orders at the same time: the figures are checked as at least this test's own.
test('after a couple of demo orders the owner sees today’s work, the period’s figures and the chart with its data', async ({
  page,
}) => {
  await placeDemoOrder(page);
  await placeDemoOrder(page);

  await signIn(page);
  const tabs = page.getByRole('tablist', { name: 'Dashboard sections' }).getByRole('tab');
  await expect(tabs.first()).toHaveText('Overview');
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  const overview = page.getByTestId('overview');

  // Today: the two paid card orders wait to be shipped, and the count links to the filtered list.
  const toShip = overview.getByTestId('today-ordersToShip');
  await expect
    .poll(async () => count(await toShip.locator('p').nth(1).textContent()))
    .toBeGreaterThanOrEqual(2);

  // The period (last 7 days by default), one section a currency: at least these two orders, some revenue,
  // each figure with its change on the period before.
  const figures = overview.getByTestId('period-figures');
  await expect(figures).toBeVisible();
  const sections = figures
    .locator('[data-testid^="period-"]')
    .filter({ has: page.getByTestId('figure-revenue') });
  const total = async (testId: string) => {
    const values = await sections.getByTestId(testId).locator('dd:first-of-type').allTextContents();
    return values.reduce((sum, v) => sum + count(v), 0);
  };
  await expect.poll(() => total('figure-orders')).toBeGreaterThanOrEqual(2);
  expect(await total('figure-revenue')).toBeGreaterThan(0);
  await expect(sections.first().getByTestId('figure-revenue')).toContainText(
    /up|down|no change|none the period before/,
  );

  // Each currency's chart: an image named by its title and described, every day of the period a bar.
  const charts = figures.locator('[data-testid^="revenue-chart-"]');
  await expect(charts.first()).toBeVisible();
  const image = charts.first().getByRole('img', { name: /^Revenue per day, [A-Z]{3}$/ });
  await expect(image).toBeVisible();
  await expect(image.locator('desc')).toContainText(/^7 days from .* in all\./);
  await expect(image.locator('rect')).toHaveCount(7);

  // Its data table, behind "Show the data": one row a day; today's rows (the last) hold the two orders.
  let todaysOrders = 0;
  for (const chart of await charts.all()) {
    await chart.getByText('Show the data').click();
    const rows = chart.getByRole('table').locator('tbody tr');
    await expect(rows).toHaveCount(7);
    todaysOrders += count(await rows.last().locator('td').last().textContent());
  }
  expect(todaysOrders).toBeGreaterThanOrEqual(2);

  // Top products, the payment mix, new and returning customers.
  await expect(
    figures.getByRole('table', { name: 'Top products' }).locator('tbody tr').first(),
  ).toBeVisible();
  await expect(figures.getByRole('table', { name: 'Payment methods' })).toContainText('Card');
  await expect(figures.getByTestId('figure-customers')).toContainText(/\d+ new, \d+ returning/);

  // Sell-through per size, and the storefront's health, the owner's.
  await expect(
    overview.getByTestId('size-chart').getByRole('img', { name: /^Sell-through per size/ }),
  ).toBeVisible();
  await expect(overview.getByTestId('health')).toContainText(/errors? logged in the period/);

  await expectNoAxeViolations(page, 'the Overview');

  // It reads at 320 px without scrolling sideways (WCAG 1.4.10): the chart draws at the width it has.
  await page.setViewportSize({ width: 320, height: 800 });
  await expect(image).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
    .toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The count's link opens the Orders tab on that list; going back to the Overview and following it again works.
  await toShip.getByRole('link', { name: /Paid, not shipped/ }).click();
  await expect(page.getByRole('tab', { name: 'Orders', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('combobox', { name: 'Step', exact: true })).toHaveValue('paid');
  await expect(page.getByTestId('order-row').first()).toContainText('Paid');
  await openAdminTab(page, 'Overview');
  await toShip.getByRole('link', { name: /Paid, not shipped/ }).click();
  await expect(page.getByRole('tab', { name: 'Orders', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
});

test('staff see today’s work and sell-through in units, but no money', async ({ page }) => {
  await signIn(page, { email: staffEmail(), password: staffPassword() });
  await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
  const overview = page.getByTestId('overview');
  await expect(overview.getByTestId('today')).toBeVisible();
  await expect(overview.getByTestId('size-chart')).toBeVisible();
  await expect(overview.getByTestId('period-figures')).toHaveCount(0);
  await expect(overview.locator('[data-testid^="revenue-chart-"]')).toHaveCount(0);
  await expect(overview.getByTestId('health')).toHaveCount(0);
  await expect(overview).not.toContainText(/Revenue|Discounts given|Average order/);

  // Not hidden by the page alone: the server sends staff no period, and refuses them the log's health.
  const answer = await adminQuery(page, 'admin.dashboard.overview', { preset: '30d' });
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ result: { data: { role: 'staff', period: null } } });
  expect((await adminQuery(page, 'admin.dashboard.health', { preset: '30d' })).status).toBe(403);

  await expectNoAxeViolations(page, 'the Overview as staff see it');
});
