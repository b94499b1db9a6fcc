import { expect, test } from './support/test';

/**
 * Landing pages other than the home page load with their own chunk (client/src/app/app-routes.tsx). The
 * server's render must still be the whole page, and the browser's hydration must take over that markup as it
 * is: a mismatch makes React throw the server's markup away and render again (and say so in the console).
 */
test('pages with their own chunk arrive rendered and hydrate without a mismatch', async ({
  page,
  request,
}) => {
  const search = await request.get('/api/trpc/catalogue.search?input=%7B%22limit%22%3A1%7D');
  const [first] = (await search.json()).result.data.items as Array<{ id: string }>;
  const problems: string[] = [];
  page.on('console', (m) => {
    // The unknown page's own 404 status is expected; any other failed file is caught below, with its address.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && r.request().resourceType() !== 'document')
      problems.push(`${r.status()} ${r.url()}`);
  });
  page.on('pageerror', (e) => problems.push(e.message));
  // Anything of the server's markup removed from #root before the app is ready means it was rendered again.
  await page.addInitScript(() => {
    const w = window as unknown as { removedServerNodes: number };
    w.removedServerNodes = 0;
    document.addEventListener('DOMContentLoaded', () => {
      const root = document.getElementById('root');
      if (!root) return;
      new MutationObserver((records) => {
        if (document.documentElement.dataset.ready === 'true') return;
        for (const r of records) w.removedServerNodes += r.removedNodes.length;
      }).observe(root, { childList: true });
    });
  });

  for (const path of [`/product/${first?.id}`, '/about', '/accessibility', '/no-such-page']) {
    const html = await (await request.get(path)).text();
    expect(html, path).toMatch(/<div id="root">.*<h1[^>]*>[^<]+/s);
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { removedServerNodes: number }).removedServerNodes),
      path,
    ).toBe(0);
  }
  expect(problems).toEqual([]);
});
