import { expect, type Page } from '@playwright/test';

/** The throwaway admin that global-setup creates for this run. */
export const adminEmail = () => process.env.E2E_ADMIN_EMAIL ?? '';
export const adminPassword = () => process.env.E2E_ADMIN_PASSWORD ?? '';

/** Signs in through the real sign-in page and waits for the dashboard. */
export async function signIn(page: Page): Promise<void> {
  await page.goto('/admin');
  await page.getByLabel('Email').fill(adminEmail());
  await page.getByLabel('Password').fill(adminPassword());
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
}
