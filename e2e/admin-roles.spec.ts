import { signIn, staffEmail, staffPassword } from './support/admin';
import { expect, test } from './support/test';

test('a staff account works on products and orders, and is told the rest is the owner’s', async ({
  page,
}) => {
  await signIn(page, { email: staffEmail(), password: staffPassword() });
  await expect(page.getByTestId('admin-email')).toHaveText(staffEmail());
  await expect(page.getByTestId('admin-role')).toHaveText('Staff');
  for (const tab of ['Products', 'Orders']) await expect(page.getByRole('tab', { name: tab })).toBeVisible();
  for (const tab of ['Catalog Management', 'Settings', 'Logs']) {
    await expect(page.getByRole('tab', { name: tab })).toHaveCount(0);
  }
  await expect(page.getByRole('tab', { name: 'Products' })).toHaveAttribute('aria-selected', 'true');

  // The log by its address: the page says whose it is, and the server would refuse it anyway.
  await page.goto('/admin/logs');
  await expect(page.getByRole('status')).toHaveText('Only the shop owner can do this.');
  await expect(page.getByTestId('log-table')).toHaveCount(0);
  const refused = await page.request.get('/api/trpc/admin.logs.list?input=%7B%7D');
  expect(refused.status()).toBe(403);
});
