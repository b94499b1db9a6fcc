import { adminEmail, adminPassword, signIn } from './support/admin';
import { expect, test } from './support/test';

const email = adminEmail;
const _password = adminPassword;

// Clearing the log would race with the other test's reading it: these two run one after the other.
test.describe.configure({ mode: 'serial' });

test('an admin action shows up in Log Management; filters and search narrow it; Clear Logs empties it', async ({
  page,
}) => {
  await signIn(page);
  // An admin action: ask Stripe (demo mode: the gateway) about waiting orders.
  await page.getByRole('tab', { name: 'Orders' }).click();
  await page.getByRole('button', { name: 'Check pending payments with Stripe' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: /Checked \d+ waiting order/ })).toBeVisible();

  // The dashboard's Logs tab shows the same log.
  await page.getByRole('tab', { name: 'Logs' }).click();
  await expect(page.getByRole('heading', { name: 'Log Management' })).toBeVisible();
  await page.getByRole('link', { name: 'Open the log on its own page' }).click();
  await expect(page).toHaveURL(/\/admin\/logs$/);
  await expect(page.getByRole('heading', { name: 'Log Management', level: 1 })).toBeVisible();

  const rows = page.getByTestId('log-row');
  const reconciled = rows.filter({ hasText: 'orders reconciled' });
  await expect(reconciled.first()).toBeVisible();
  await expect(rows.filter({ hasText: 'admin signed in' }).first()).toBeVisible();
  await expect(reconciled.first()).toContainText('Info');
  await expect(reconciled.first()).toContainText('orders');

  // Details expand to the formatted JSON of the entry.
  await reconciled.first().getByRole('button', { name: 'Show' }).click();
  await expect(page.locator('pre').filter({ hasText: '"event": "orders.reconcile"' })).toBeVisible();
  await expect(page.locator('pre').filter({ hasText: '"event": "orders.reconcile"' })).toContainText(email());

  // Source filter: only orders entries remain, and the filter shows as a badge.
  await page.getByLabel('Source').selectOption('orders');
  await expect(page.getByTestId('filter-badge')).toHaveText(['Source: orders']);
  await expect(rows.filter({ hasText: 'admin signed in' })).toHaveCount(0);
  await expect(reconciled.first()).toBeVisible();
  for (const source of await rows.locator('td:nth-child(3)').allTextContents()) expect(source).toBe('orders');

  // Level filter: no orders errors.
  await page.getByLabel('Level').selectOption('error');
  await expect(page.getByText('No logs found')).toBeVisible();
  await page.getByRole('button', { name: 'Remove filter Level: Error' }).click();
  await page.getByRole('button', { name: 'Remove filter Source: orders' }).click();
  await expect(page.getByTestId('filter-badge')).toHaveCount(0);

  // Search narrows on the server.
  await page.getByPlaceholder('Search in logs...').fill('reconciled');
  await expect(page.getByTestId('filter-badge')).toHaveText(['Search: reconciled']);
  await expect(rows.filter({ hasText: 'admin signed in' })).toHaveCount(0);
  await expect(reconciled.first()).toBeVisible();
  await page.getByPlaceholder('Search in logs...').fill('no-such-entry-anywhere');
  await expect(page.getByText('No logs found')).toBeVisible();
  await page.getByPlaceholder('Search in logs...').fill('reconciled');
  await expect(reconciled.first()).toBeVisible();

  // Export offers the filtered log as JSON lines.
  const href = await page.getByRole('link', { name: 'Export' }).getAttribute('href');
  expect(href).toBe('/api/admin/logs/export?q=reconciled');
  const exported = await page.request.get(href ?? '');
  expect(exported.status()).toBe(200);
  expect(exported.headers()['content-type']).toContain('application/x-ndjson');
  expect(await exported.text()).toContain('"message":"orders reconciled"');

  // Clear Logs asks first; dismissing keeps everything.
  page.once('dialog', (dialog) => void dialog.dismiss());
  await page.getByRole('button', { name: 'Clear Logs' }).click();
  await expect(reconciled.first()).toBeVisible();

  let question = '';
  page.once('dialog', (dialog) => {
    question = dialog.message();
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Clear Logs' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'All logs have been cleared' })).toBeVisible();
  expect(question).toBe('Are you sure you want to clear all logs? This action cannot be undone.');
  await expect(page.getByText('No logs found')).toBeVisible();
  // Without filters, nothing from before the clearing is left (other tests may log new entries meanwhile).
  await page.getByRole('button', { name: 'Remove filter Search: reconciled' }).click();
  await expect(page.getByRole('heading', { name: 'Log Management', level: 1 })).toBeVisible();
  await expect(rows.filter({ hasText: 'orders reconciled' })).toHaveCount(0);
});

test('web vitals from a storefront visit show in the Performance view', async ({ page }) => {
  // Measure every page load in this browser (the storefront samples half of them otherwise).
  await page.addInitScript(() => window.localStorage.setItem('store:vitals-sample', 'all'));
  const vitalsLoaded = page.waitForResponse((res) => /\/assets\/web-vitals-[^/]+\.js$/.test(res.url()));
  await page.goto('/');
  await vitalsLoaded;
  await page.waitForLoadState('networkidle');
  // Leaving the page hides it: the beacon goes out then (Playwright does not see beacons sent while a page
  // unloads, so the proof is what the server stored).
  await page.goto('/about');
  await page.waitForLoadState('networkidle');

  await signIn(page);
  await page.goto('/admin/logs');
  const performance = page.getByTestId('performance');
  await expect(performance.getByRole('heading', { name: 'Performance' })).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(performance.getByTestId('vital-TTFB')).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  for (const metric of ['TTFB', 'FCP', 'LCP']) {
    const section = performance.getByTestId(`vital-${metric}`);
    await expect(section.getByTestId('vital-row').filter({ hasText: 'All routes' })).toBeVisible();
    const home = section
      .getByTestId('vital-row')
      .filter({ has: page.getByRole('cell', { name: '/', exact: true }) });
    await expect(home).toBeVisible();
    await expect(home).toContainText(/Good|Needs improvement|Poor/);
    await expect(section.getByRole('img', { name: new RegExp(`^${metric} p75 per day`) })).toBeVisible();
  }

  // On a phone each chart goes under its heading, at its left, inside the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const metric of ['TTFB', 'FCP', 'LCP']) {
    const section = performance.getByTestId(`vital-${metric}`);
    const heading = await section.getByRole('heading', { level: 3 }).boundingBox();
    const chart = await section
      .getByRole('img', { name: new RegExp(`^${metric} p75 per day`) })
      .boundingBox();
    expect(heading && chart).toBeTruthy();
    if (!heading || !chart) continue;
    expect(chart.y).toBeGreaterThanOrEqual(heading.y + heading.height);
    expect(Math.abs(chart.x - heading.x)).toBeLessThan(2);
    expect(chart.x + chart.width).toBeLessThanOrEqual(390);
    // The rating, what the table is for, is on the screen (the spread columns give way to it).
    const rating = await section
      .getByTestId('vital-row')
      .first()
      .getByText(/Good|Needs improvement|Poor/)
      .boundingBox();
    expect((rating?.x ?? 9999) + (rating?.width ?? 0)).toBeLessThanOrEqual(390);
  }
});
