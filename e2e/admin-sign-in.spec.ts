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
  await expect(page.getByTestId('admin-role')).toHaveText('Owner');
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

test('storefront pages inline only the storefront stylesheet; the admin stylesheet comes with the admin chunk', async ({
  page,
  request,
}) => {
  const dir = path.resolve(import.meta.dirname, '..', 'dist', 'client', 'assets');
  const adminSheets = readdirSync(dir).filter((f) => /^admin-app-[\w-]+\.css$/.test(f));
  expect(adminSheets, 'one stylesheet for the admin chunk').toHaveLength(1);
  const adminSheet = adminSheets[0] ?? '';
  const adminCss = readFileSync(path.join(dir, adminSheet), 'utf8');
  // Classes only the admin's folders use: the products panel's refresh spinner, the shipping options' rows,
  // and the packing slip's print rules.
  const adminOnly = [
    /\.animate-spin\b/,
    /\.grid-cols-\\\[2fr_1fr_5rem_4rem_4rem_auto\\\]/,
    /\.packing-slip\b/,
  ];
  for (const rule of adminOnly) expect(adminCss, `${rule} in the admin stylesheet`).toMatch(rule);

  const search = await request.get('/api/trpc/catalogue.search?input=%7B%22limit%22%3A1%7D');
  const [first] = (await search.json()).result.data.items as Array<{ id: string }>;
  for (const url of ['/', `/product/${first?.id}`, '/about', '/accessibility', '/checkout']) {
    const html = await (await request.get(url)).text();
    const inline = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
    // The storefront's own styles are there (the header's sticky top bar).
    expect(inline, `${url} inlines the storefront stylesheet`).toMatch(/\.sticky\b/);
    for (const rule of adminOnly) expect(inline, `${rule} inlined into ${url}`).not.toMatch(rule);
    expect(html, `${url} refers to the admin stylesheet`).not.toContain(adminSheet);
    expect(html).not.toContain('/assets/admin-app-');
  }

  // The admin's pages get their stylesheet with the chunk.
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  await expect(page.locator(`link[rel="stylesheet"][href$="/assets/${adminSheet}"]`)).toHaveCount(1);
});
