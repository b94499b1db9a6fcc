import { expect, type Page } from '@playwright/test';

/** The throwaway admin that global-setup creates for this run. */
export const adminEmail = () => process.env.E2E_ADMIN_EMAIL ?? '';
export const adminPassword = () => process.env.E2E_ADMIN_PASSWORD ?? '';

/** A staff account (decision 0030) that global-setup creates with the admin command. */
export const staffEmail = () => process.env.E2E_STAFF_EMAIL ?? '';
export const staffPassword = () => process.env.E2E_STAFF_PASSWORD ?? '';

/** Signs in through the real sign-in page (as the owner unless told otherwise) and waits for the dashboard. */
export async function signIn(
  page: Page,
  as: { email: string; password: string } = { email: adminEmail(), password: adminPassword() },
): Promise<void> {
  await page.goto('/admin');
  await page.getByLabel('Email').fill(as.email);
  await page.getByLabel('Password').fill(as.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
}

/** Adds a product through the admin API, as the signed-in owner's page would (sign in first). */
export async function createProduct(page: Page, id: string, fields: Record<string, unknown>): Promise<void> {
  const res = await page.evaluate(
    async (input) => {
      const r = await fetch('/api/trpc/admin.products.create', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      return { status: r.status, body: await r.text() };
    },
    { id, fields },
  );
  expect(res.status, res.body).toBe(200);
}

/**
 * Opens one of the dashboard's tabs. The dashboard opens on the Overview (issue 44): journeys that work in
 * another tab open it first.
 */
export async function openAdminTab(page: Page, name: string): Promise<void> {
  const tab = page
    .getByRole('tablist', { name: 'Dashboard sections' })
    .getByRole('tab', { name, exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}
