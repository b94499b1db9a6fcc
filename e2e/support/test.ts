import { test as base, expect, type Page, type Response } from '@playwright/test';

/**
 * Storefront pages arrive rendered by the server and become interactive when the client hydrates them (the
 * app marks <html data-ready> then). A click before that would be lost, so every navigation a test makes
 * waits for it, as a person would wait for the page to respond.
 */
async function untilReady(page: Page, response: Response | null): Promise<Response | null> {
  const type = response?.headers()['content-type'] ?? '';
  if (type.startsWith('text/html')) {
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
  }
  return response;
}

function waitForReadyOnNavigation(page: Page): void {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => untilReady(page, await goto(url, options));
  page.reload = async (options) => untilReady(page, await reload(options));
}

export const test = base.extend({
  // Every page of the context, the test's own and any it opens (a second tab for the storefront).
  context: async ({ context }, use) => {
    context.on('page', waitForReadyOnNavigation);
    await use(context);
  },
});

export type { Locator, Page } from '@playwright/test';
export { expect };
