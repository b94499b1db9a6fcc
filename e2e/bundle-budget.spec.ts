import path from 'node:path';
import { expect, test } from '@playwright/test';
import { bundleReport, HOME_JS_BUDGET_BROTLI } from '../scripts/bench/bundle-sizes';

// The build the suite runs against (npm run test:e2e builds first), counted as the benchmark counts it.
const clientDir = path.join(import.meta.dirname, '..', 'dist', 'client');

test('the JavaScript before the home page stays within its budget, with no admin code in it', () => {
  const report = bundleReport(clientDir);
  const { files, brotli } = report.homeInitialJs;
  // Every file the page loads first is counted: a page that named none, or a file not in the build, would
  // make any total look small.
  expect(files.length).toBeGreaterThan(0);
  expect(files.filter((f) => !report.chunks.some((c) => c.file === f))).toEqual([]);
  expect(report.adminInInitial).toBe(false);
  expect(
    brotli,
    `JavaScript before the home page: ${brotli} bytes brotli in ${files.join(', ')}; the budget is ${HOME_JS_BUDGET_BROTLI}. Load a feature's code with the page that needs it (client/src/app/app-routes.tsx).`,
  ).toBeLessThanOrEqual(HOME_JS_BUDGET_BROTLI);
});
