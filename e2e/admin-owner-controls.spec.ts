import { adminEmail, adminPassword, signIn, staffEmail, staffPassword } from './support/admin';
import { payWithDemoForm } from './support/demo-payment';
import { expect, type Page, test } from './support/test';

// The staff account signs in and out here as in admin-roles.spec.ts: one test after the other.
test.describe.configure({ mode: 'serial', timeout: 90_000 });

type Role = 'tab' | 'button' | 'link';

/**
 * Every control the admin shows for an owner-only procedure or route (decision 0030: catalogue versions,
 * settings, the log and the performance panel, the audit, the team; an order's cancellation and refunds;
 * making sales and codes),
 * by role and accessible name, and where it shows. Staff must find none of them; the owner finds every one,
 * so the walk cannot pass by looking in the wrong place.
 */
const OWNER_ONLY: Array<{
  role: Role;
  name: string;
  where: 'dashboard' | 'products' | 'discounts' | 'order';
}> = [
  { role: 'tab', name: 'Catalog Management', where: 'dashboard' },
  { role: 'tab', name: 'Settings', where: 'dashboard' },
  { role: 'tab', name: 'Logs', where: 'dashboard' },
  { role: 'tab', name: 'Audit', where: 'dashboard' },
  { role: 'tab', name: 'Team', where: 'dashboard' },
  { role: 'button', name: 'Manage Catalog', where: 'products' },
  { role: 'button', name: 'New sale or code', where: 'discounts' },
  { role: 'button', name: 'Cancel order', where: 'order' },
  { role: 'button', name: 'Refund', where: 'order' },
];

const ownerOnlyIn = (where: string) => OWNER_ONLY.filter((c) => c.where === where);

/** A paid demo order, through the store's own Buy Now; returns its number ("#12"). */
async function placeDemoOrder(page: Page): Promise<string> {
  await page.goto('/');
  await page.getByTestId('product-card').first().getByRole('heading').getByRole('link').click();
  const detail = page.getByTestId('product-detail');
  await detail.locator('fieldset label:not(:has(input:disabled))').first().click();
  await detail.getByRole('button', { name: 'Buy Now' }).click();
  await payWithDemoForm(page);
  const number = page.getByTestId('order-number');
  await expect(number).toHaveText(/^Order #\d+$/);
  return ((await number.textContent()) ?? '').replace('Order ', '');
}

/** Waits for a panel's data: no loading placeholder left. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('.skeleton:visible')).toHaveCount(0);
}

/** The order's dialog, opened from the Orders tab. */
async function openOrder(page: Page, number: string) {
  await page.getByRole('tab', { name: 'Orders' }).click();
  const row = page.getByTestId('order-row').filter({ hasText: number });
  await row.getByRole('button', { name: number }).click();
  const dialog = page.getByRole('dialog', { name: `Order ${number}` });
  await expect(dialog.getByRole('heading', { name: 'Events' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Mark as shipped' })).toBeVisible();
  return dialog;
}

let order = '';

test('staff walking every admin tab, the order dialog, the menu and the profile find no owner-only control', async ({
  page,
}) => {
  order = await placeDemoOrder(page);
  await signIn(page, { email: staffEmail(), password: staffPassword() });
  await expect(page.getByTestId('admin-role')).toHaveText('Staff');
  for (const c of ownerOnlyIn('dashboard'))
    await expect(page.getByRole(c.role, { name: c.name, exact: true })).toHaveCount(0);

  // Every tab staff have, each with its content loaded.
  const tabs = page.getByRole('tablist', { name: 'Dashboard sections' }).getByRole('tab');
  const names = await tabs.allTextContents();
  expect(names).toEqual(['Overview', 'Products', 'Orders', 'Returns', 'Discounts']);
  for (const name of names) {
    await page.getByRole('tab', { name, exact: true }).click();
    await settled(page);
    for (const c of OWNER_ONLY)
      await expect(page.getByRole(c.role, { name: c.name, exact: true }), `${c.name} on ${name}`).toHaveCount(
        0,
      );
  }
  // Products: what staff can do is there, so the walk looked at the loaded tab.
  await page.getByRole('tab', { name: 'Products' }).click();
  await expect(page.getByRole('button', { name: 'Add Product' })).toBeVisible();
  await expect(page.getByTestId('product-row').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Manage Catalog' })).toHaveCount(0);

  // An order that the owner could cancel and refund: staff ship it, nothing more.
  const dialog = await openOrder(page, order);
  for (const c of ownerOnlyIn('order'))
    await expect(dialog.getByRole(c.role, { name: c.name, exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The menu and the profile.
  await page.getByRole('button', { name: 'Open admin menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu.getByRole('link', { name: 'View Profile' })).toBeVisible();
  for (const c of OWNER_ONLY)
    await expect(menu.getByRole(c.role, { name: c.name, exact: true })).toHaveCount(0);
  await menu.getByRole('link', { name: 'View Profile' }).click();
  await expect(page).toHaveURL(/\/admin\/profile$/);
  await settled(page);
  for (const c of OWNER_ONLY)
    await expect(page.getByRole(c.role, { name: c.name, exact: true })).toHaveCount(0);
});

test('the owner finds every one of those controls where the walk looked', async ({ page }) => {
  expect(order, 'the staff walk placed an order').not.toBe('');
  await signIn(page, { email: adminEmail(), password: adminPassword() });
  for (const c of ownerOnlyIn('dashboard'))
    await expect(page.getByRole(c.role, { name: c.name, exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Products', exact: true }).click();
  for (const c of ownerOnlyIn('products'))
    await expect(page.getByRole(c.role, { name: c.name, exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Discounts', exact: true }).click();
  for (const c of ownerOnlyIn('discounts'))
    await expect(page.getByRole(c.role, { name: c.name, exact: true })).toBeVisible();
  const dialog = await openOrder(page, order);
  for (const c of ownerOnlyIn('order'))
    await expect(dialog.getByRole(c.role, { name: c.name, exact: true })).toBeVisible();
});
