import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LISTING_PARAMS, type RenderPage } from '../shared/ssr-contract.js';
import { isRenderedPage, pageSearch, storefrontHtml } from './storefront-page.js';

const template =
  '<html><head><title>Store</title><meta name="description" content="x"></head><body><div id="root"></div><script type="module" src="/assets/index.js"></script></body></html>';
const log = pino({ level: 'silent' });
const noQuery = async () => undefined;

describe('storefront page HTML', () => {
  it('renders the landing pages on the server and leaves the rest to the browser', () => {
    expect(isRenderedPage('/')).toBe(true);
    expect(isRenderedPage('/product/plink_abc')).toBe(true);
    expect(isRenderedPage('/about')).toBe(true);
    expect(isRenderedPage('/accessibility')).toBe(true);
    // The same for everyone, so kept like the landing pages; the order page has its own route.
    expect(isRenderedPage('/checkout/cancel')).toBe(true);
    expect(isRenderedPage('/canceled')).toBe(true);
    for (const p of [
      '/checkout',
      '/admin',
      '/admin/dashboard',
      '/testpayment',
      '/success',
      '/checkout/success',
      '/order/x',
      '/nope',
    ])
      expect(isRenderedPage(p)).toBe(false);
  });

  it('puts the markup in the root and the answers beside it, with no way to close the script element', async () => {
    const render: RenderPage = async (pathname, search) => ({
      html: `<main>${pathname}?${search}</main>`,
      state: { mutations: [], queries: [{ title: '</script><script>alert(1)</script>' }] } as never,
    });
    const html = await storefrontHtml({
      template,
      pathname: '/',
      search: 'q=silk',
      head: null,
      render,
      query: noQuery,
      log,
    });
    expect(html).toContain('<div id="root"><main>/?q=silk</main></div>');
    const state = /<script type="application\/json" id="query-state">(.*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(state).not.toContain('<');
    expect(JSON.parse(state).queries[0].title).toBe('</script><script>alert(1)</script>');
    expect(html.match(/<\/script>/g)).toHaveLength(2);
  });

  it('sends the plain page when the render fails, and never renders admin or checkout pages', async () => {
    let calls = 0;
    const failing: RenderPage = async () => {
      calls++;
      throw new Error('boom');
    };
    const head = {
      title: 'Silk · Store',
      description: 'Silk things',
      tags: '<link rel="canonical" href="/x">',
    };
    const html = await storefrontHtml({
      template,
      pathname: '/about',
      search: '',
      head,
      render: failing,
      query: noQuery,
      log,
    });
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('<title>Silk · Store</title>');
    expect(calls).toBe(1);
    await storefrontHtml({
      template,
      pathname: '/admin',
      search: '',
      head: null,
      render: failing,
      query: noQuery,
      log,
    });
    expect(calls).toBe(1);
  });

  it('starts the app from the boot script on rendered pages only', async () => {
    const vite =
      '<html><head><title>Store</title><script type="module" crossorigin src="/assets/index-AB12.js"></script>\n    <link rel="modulepreload" crossorigin href="/assets/shared-CD34.js">\n</head><body><div id="root"></div></body></html>';
    const render: RenderPage = async () => ({ html: '<main></main>', state: { mutations: [], queries: [] } });
    const page = (pathname: string, boot?: string) =>
      storefrontHtml({ template: vite, pathname, search: '', head: null, render, query: noQuery, log, boot });
    const home = await page('/');
    expect(home).toContain(
      '<script type="module" src="/boot.js" data-entry="/assets/index-AB12.js" data-preload="/assets/shared-CD34.js"></script>',
    );
    expect(home).not.toContain('modulepreload');
    // With the page shell's boot script: inlined, as it is (a `$&` in it stays text).
    const boot = "import(document.querySelector('script[data-entry]').dataset.entry); // $& $'";
    const inlined = await page('/', boot);
    expect(inlined).toContain(
      `<script type="module" data-entry="/assets/index-AB12.js" data-preload="/assets/shared-CD34.js">${boot}</script>`,
    );
    expect(inlined).not.toContain('/boot.js');
    expect(inlined).not.toContain('src="/assets/index-AB12.js"');
    const checkout = await page('/checkout');
    expect(checkout).toBe(vite);
  });

  it('keys pages by the listing parameters they read, nothing else', () => {
    const written = new URLSearchParams(
      'q=silk+kurta&brand=Noor+Mahal&size=M&size=L&color=Mint&tag=eid&min=10&max=90&sort=newest&page=3',
    );
    for (const name of written.keys()) expect(LISTING_PARAMS.has(name), name).toBe(true);
    expect(pageSearch('/', `${written}&utm_source=mail&fbclid=x`)).toBe(written.toString());
    expect(pageSearch('/', 'size=M&size=L')).toBe('size=M&size=L');
    expect(pageSearch('/product/p1', 'utm_source=mail&size=M')).toBe('');
    // A product page reads its colour alone, by its slug: every spelling shares one cached page.
    expect(pageSearch('/product/p1', 'utm_source=mail&colour=Sea+Green')).toBe('colour=sea-green');
    expect(pageSearch('/product/p1', 'colour=%20')).toBe('');
    expect(pageSearch('/about', 'q=x')).toBe('');
  });
});
