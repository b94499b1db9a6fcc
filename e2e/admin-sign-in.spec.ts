import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { adminEmail, adminPassword, signIn } from './support/admin';
import { expect, test } from './support/test';

const email = adminEmail;
const password = adminPassword;

test('guarded admin pages send a signed-out visitor to the sign-in page', async ({ page }) => {
  for (const route of ['/admin/dashboard', '/admin/logs', '/admin/about', '/admin/profile']) {
    await page.goto(route);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
    await expect(page.getByText('Admin Dashboard')).toHaveCount(0);
  }
});

test('a wrong password says only "Invalid credentials"', async ({ page }) => {
  await page.goto('/admin');
  await expect(page.getByText('Sign in to manage products')).toBeVisible();
  await page.getByLabel('Email').fill(email());
  await page.getByLabel('Password').fill('definitely-not-the-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.locator('form').getByRole('alert')).toHaveText('Invalid credentials');
  await expect(page).toHaveURL(/\/admin$/);
});

test('the operator signs in, sees the dashboard and a ticking session clock, stays in on reload, logs out', async ({
  page,
}) => {
  await signIn(page);
  await expect(page.getByTestId('toast').filter({ hasText: 'Login successful' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByTestId('admin-email')).toHaveText(email());
  for (const tab of ['Products', 'Catalog Management', 'Orders', 'Settings', 'Logs']) {
    await expect(page.getByRole('tab', { name: tab })).toBeVisible();
  }

  await page.getByRole('button', { name: 'Open admin menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Admin' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'View Profile' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'About' })).toBeVisible();
  await expect(menu.getByTestId('login-time')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  const duration = menu.getByTestId('session-duration');
  await expect(duration).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
  const first = await duration.textContent();
  await expect(duration).not.toHaveText(first ?? '', { timeout: 3000 });
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open admin menu' })).toBeFocused();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId('toast').filter({ hasText: 'Logged out successfully' })).toBeVisible();
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/admin$/);
});

test('the profile shows the account and the About page shows the store', async ({ page }) => {
  await signIn(page);
  await page.getByRole('button', { name: 'Open admin menu' }).click();
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'View Profile' }).click();
  await expect(page.getByRole('heading', { name: 'User Profile' })).toBeVisible();
  await expect(page.getByTestId('profile-email')).toHaveText(email());
  await page.goto('/admin/about');
  await expect(page.getByRole('heading', { name: 'Version Information' })).toBeVisible();
  await expect(page.getByText('Version 1.0.0')).toBeVisible();
});

test('the built client holds no password, no admin list and no client-side admin flag', () => {
  const dir = path.resolve(import.meta.dirname, '..', 'dist', 'client', 'assets');
  const code = readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
  expect(code.length).toBeGreaterThan(10_000);
  expect(code.includes('adminAuthenticated'), 'client-side admin flag found').toBe(false);
  expect(code).not.toContain(password());
  expect(code).not.toContain(email());
  expect(code).not.toContain('admin@demo.store');
  expect(code).not.toMatch(/sk_(live|test)_/);
  expect(code).not.toMatch(/password_hash|scrypt/);
  // Shoppers never download the admin chunk, and the storefront's own code carries no Zod.
  const storefront = readdirSync(dir)
    .filter((f) => f.endsWith('.js') && !f.startsWith('admin-app'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
  expect(storefront.includes('ZodError'), 'Zod found in the storefront bundle').toBe(false);
});
