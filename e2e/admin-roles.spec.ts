import { signIn, staffEmail, staffPassword } from './support/admin';
import { expect, test } from './support/test';

// One staff account for the file: its tests sign it in and out, so they run one after the other.
test.describe.configure({ mode: 'serial' });

test('a staff account works on products and orders, and is told the rest is the owner’s', async ({
  page,
}) => {
  await signIn(page, { email: staffEmail(), password: staffPassword() });
  await expect(page.getByTestId('admin-email')).toHaveText(staffEmail());
  await expect(page.getByTestId('admin-role')).toHaveText('Staff');
  for (const tab of ['Overview', 'Products', 'Orders'])
    await expect(page.getByRole('tab', { name: tab })).toBeVisible();
  for (const tab of ['Catalog Management', 'Settings', 'Logs']) {
    await expect(page.getByRole('tab', { name: tab })).toHaveCount(0);
  }
  // The dashboard opens on the Overview for staff too (issue 44).
  await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');

  // The log by its address: the page says whose it is, and the server would refuse it anyway.
  await page.goto('/admin/logs');
  await expect(page.getByRole('status')).toHaveText('Only the shop owner can do this.');
  await expect(page.getByTestId('log-table')).toHaveCount(0);
  const refused = await page.request.get('/api/trpc/admin.logs.list?input=%7B%7D');
  expect(refused.status()).toBe(403);
});

test('the profile lists the account’s sessions and signs another browser out', async ({ page, browser }) => {
  const staff = { email: staffEmail(), password: staffPassword() };
  // A second browser, told apart by its User-Agent: the list names devices by it.
  const other = await browser.newContext({
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
  });
  try {
    const otherPage = await other.newPage();
    await signIn(otherPage, staff);
    await signIn(page, staff);

    await page.goto('/admin/profile');
    const table = page.getByRole('table', { name: 'Signed-in sessions' });
    await expect(table.getByText('(this browser)')).toHaveCount(1);
    await expect(table.getByText('Firefox on Windows')).toBeVisible();
    await page.getByRole('button', { name: 'Sign out Firefox on Windows' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'That session is signed out' })).toBeVisible();
    await expect(table.getByText('Firefox on Windows')).toHaveCount(0);

    // The other browser finds itself signed out at its next step.
    await otherPage.goto('/admin/dashboard');
    await expect(otherPage).toHaveURL(/\/admin$/);
    await expect(otherPage.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  } finally {
    await other.close();
  }
});

test('the owner finds what staff did in the Audit, by admin, with its details', async ({ page }) => {
  await signIn(page);
  await page.getByRole('tab', { name: 'Audit' }).click();
  await page.getByRole('combobox', { name: 'Admin', exact: true }).selectOption(staffEmail());
  const rows = page.getByTestId('audit-row');
  // The session the staff account signed out in the test before.
  const ended = rows.filter({ hasText: 'admin.account.endSession' });
  await expect(ended).toHaveCount(1);
  await expect(rows.filter({ hasText: 'owner@' })).toHaveCount(0);
  await ended.getByRole('button', { name: /Show details of admin\.account\.endSession/ }).click();
  await expect(page.getByText('"session":')).toBeVisible();
});

test('the owner sees the team with each account’s role', async ({ page }) => {
  await signIn(page);
  await page.getByRole('tab', { name: 'Team' }).click();
  const table = page.getByRole('table', { name: 'Team' });
  await expect(table.getByRole('row').filter({ hasText: '(you)' })).toContainText('Owner');
  await expect(table.getByRole('combobox', { name: `Role of ${staffEmail()}` })).toHaveValue('staff');
  await expect(table.getByRole('button', { name: `Remove ${staffEmail()}` })).toBeEnabled();
});
