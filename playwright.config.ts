import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs } from './e2e/support/chromium';

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  outputDir: 'test-results',
  use: {
    ...devices['Desktop Chrome'],
    baseURL: process.env.E2E_BASE_URL,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
  },
  projects: [
    { name: 'journeys', testIgnore: /catalog-versions\.spec\.ts/, grepInvert: /@edits-catalogue/ },
    // Tests that add or delete products or change the store's settings run after the journeys: beside a journey
    // that counts the whole catalogue they change what it sees mid-test (a listing of 46, then 47).
    {
      name: 'catalogue-edits',
      testIgnore: /catalog-versions\.spec\.ts/,
      grep: /@edits-catalogue/,
      dependencies: ['journeys'],
    },
    // Publishing and overwrite imports replace the whole live catalogue: run them after everything else.
    {
      name: 'catalogue-versions',
      testMatch: /catalog-versions\.spec\.ts/,
      dependencies: ['catalogue-edits'],
    },
  ],
});
