import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs } from './e2e/support/chromium';

/**
 * What these check is the same on every engine: the built bundle's size and chunks, layout at phone widths,
 * layout shift, input before hydration, axe's reading of the markup. The PostgreSQL + S3 run (E2E_DATABASE)
 * leaves them to the SQLite run, which has the same pages: it repeated them for about two minutes of CI.
 */
const sameOnEveryEngine =
  /(bundle-budget|page-chunks|reflow|layout-shift|before-hydration|accessibility)\.spec\.ts/;
/** They change the store's payment methods: each runs alone (see the projects). */
const PAYMENT_METHOD_SPECS = /(cash-on-delivery|admin-payment-methods)\.spec\.ts/;
/** It holds and restocks units of the first demo product: alone, so no other spec's cart meets them moving. */
const RETURNS_SPEC = /returns-journey\.spec\.ts/;
/**
 * Another Node.js line's run (npm run test:node26, E2E_OTHER_NODE=1) repeats the journeys, which is where the
 * server's runtime shows; the bundle, layout and axe checks read what the browser was sent, the same on every
 * Node line, and ran already on the machine's.
 */
const skipSameEverywhere = process.env.E2E_DATABASE === 'postgres' || process.env.E2E_OTHER_NODE === '1';
const journeysIgnore = skipSameEverywhere
  ? [/catalog-versions\.spec\.ts/, RETURNS_SPEC, sameOnEveryEngine]
  : [/catalog-versions\.spec\.ts/, RETURNS_SPEC];

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
    { name: 'journeys', testIgnore: journeysIgnore, grepInvert: /@edits-catalogue/ },
    // Tests that add or delete products or change the store's settings run after the journeys: beside a journey
    // that counts the whole catalogue they change what it sees mid-test (a listing of 46, then 47).
    {
      name: 'catalogue-edits',
      testIgnore: [
        /catalog-versions\.spec\.ts/,
        /eid-sale-journey\.spec\.ts/,
        PAYMENT_METHOD_SPECS,
        RETURNS_SPEC,
      ],
      grep: /@edits-catalogue/,
      dependencies: ['journeys'],
    },
    // The Eid journey's sale covers every demo lawn product for a minute or two: alone, so no other spec's
    // cart meets a price that changes under it.
    {
      name: 'sale-journey',
      testMatch: /eid-sale-journey\.spec\.ts/,
      dependencies: ['catalogue-edits'],
    },
    // Cash on delivery turned on for Pakistan changes every checkout to it, and the admin's figures count
    // every cash order: the shopper's journeys, then the owner's, each alone.
    {
      name: 'payment-methods',
      testMatch: /cash-on-delivery\.spec\.ts/,
      dependencies: ['sale-journey'],
    },
    {
      name: 'payment-methods-admin',
      testMatch: /admin-payment-methods\.spec\.ts/,
      dependencies: ['payment-methods'],
    },
    { name: 'returns', testMatch: RETURNS_SPEC, dependencies: ['payment-methods-admin'] },
    // Publishing and overwrite imports replace the whole live catalogue: run them after everything else.
    {
      name: 'catalogue-versions',
      testMatch: /catalog-versions\.spec\.ts/,
      dependencies: ['returns'],
    },
  ],
});
