import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProducts } from '../test-support/fixtures.js';
import { buildTestApp, createTestStore, type TestStore } from '../test-support/test-store.js';

const TEMPLATE =
  '<!doctype html><html><head><meta name="description" content="default"><title>Store</title></head><body><div id="root"></div></body></html>';

describe('pages for crawlers and link previews', () => {
  let store: TestStore;
  let app: FastifyInstance;
  beforeAll(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [
      {
        id: 'plink_1',
        title: 'Mint Lawn Kurta </script><script>alert(1)</script>',
        description: 'Breezy "lawn" with <b>embroidery</b>.',
        manufacturer: 'Zarnigar Atelier',
        sku: 'ZA-1',
        price_minor: 12450,
      },
      { id: 'plink_2', title: 'Ivory Sherwani', updated_at: '2026-05-06T07:08:09.000Z' },
    ]);
    await store.handle.db
      .insertInto('media')
      .values({
        id: 'm1',
        product_id: 'plink_1',
        url: '/media/a.svg',
        file_name: 'a.svg',
        media_type: 'image',
        display_order: 0,
        alt_text: null,
        created_at: '2026-11-22T10:00:00.000Z',
        updated_at: '2026-11-22T10:00:00.000Z',
      })
      .execute();
    // M is sold out (tracked, none left), S has some, L and XL are not tracked.
    await store.handle.db
      .insertInto('size_stock')
      .values([
        { product_id: 'plink_1', size: 'M', on_hand: 0, reserved: 0 },
        { product_id: 'plink_1', size: 'S', on_hand: 4, reserved: 0 },
      ])
      .execute();
    const clientDir = path.join(store.dir, 'client');
    mkdirSync(clientDir, { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), TEMPLATE);
    app = await buildTestApp(store, { clientDir });
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  it('serves a product page with its own title, description, canonical link, Open Graph and JSON-LD', async () => {
    const res = await app.inject('/product/plink_1');
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain(
      '<title>Mint Lawn Kurta &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; · My Store</title>',
    );
    expect(html).toContain('<link rel="canonical" href="https://shop.example/product/plink_1">');
    expect(html).toContain('<meta property="og:image" content="https://shop.example/media/a.svg">');
    expect(html).toContain(
      '<meta name="description" content="Breezy &quot;lawn&quot; with &lt;b&gt;embroidery&lt;/b&gt;.">',
    );
    expect(html).not.toContain('content="default"');
    expect(html).not.toContain('<script>alert(1)');
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1] ?? '';
    const data = JSON.parse(ld) as Record<string, unknown> & {
      offers: Array<Record<string, string>>;
      brand: { name: string };
    };
    expect(data['@type']).toBe('Product');
    expect(data.sku).toBe('ZA-1');
    expect(data.brand.name).toBe('Zarnigar Atelier');
    expect(data.image).toEqual(['https://shop.example/media/a.svg']);
    // One offer per size, each with its real availability.
    expect(data.offers.map((o) => [o.sku, o.availability])).toEqual([
      ['ZA-1-S', 'https://schema.org/InStock'],
      ['ZA-1-M', 'https://schema.org/OutOfStock'],
      ['ZA-1-L', 'https://schema.org/InStock'],
      ['ZA-1-XL', 'https://schema.org/InStock'],
    ]);
    for (const offer of data.offers) expect(offer).toMatchObject({ price: '124.50', priceCurrency: 'USD' });
  });

  it('answers a missing product with 404 and the home page with the store name', async () => {
    expect((await app.inject('/product/nope')).statusCode).toBe(404);
    expect((await app.inject('/product/%E0%A4%A')).statusCode).toBeLessThan(500);
    const home = await app.inject('/');
    expect(home.body).toContain('<title>My Store</title>');
    expect(home.body).toContain('<link rel="canonical" href="https://shop.example/">');
  });

  it('keeps missing pages out of search engines', async () => {
    for (const url of ['/product/nope', '/no/such/page']) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('<meta name="robots" content="noindex">');
    }
    expect((await app.inject('/product/nope')).body).toContain('<title>Product not found · My Store</title>');
    expect((await app.inject('/')).body).not.toContain('name="robots"');
    expect((await app.inject('/product/plink_1')).body).not.toContain('name="robots"');
  });

  it('titles a search or filtered listing by what it lists, keeping the home page as its canonical', async () => {
    const titleOf = async (url: string) => {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<link rel="canonical" href="https://shop.example/">');
      return /<title>([^<]*)<\/title>/.exec(res.body)?.[1];
    };
    expect(await titleOf('/?q=silk')).toBe('Search: silk · My Store');
    expect(await titleOf('/?tag=Lawn&size=M')).toBe('Lawn · size M · My Store');
    expect(await titleOf('/?q=eid&brand=Zarnigar+Atelier&color=Mint&max=50&instock=1&sort=newest')).toBe(
      'Search: eid · Zarnigar Atelier · colour Mint · up to $50 · in stock · My Store',
    );
    // What the listing does not read (tracking tags), its sort and its page leave the home page's title.
    expect(await titleOf('/?utm_source=mail&sort=price-asc&page=2')).toBe('My Store');
    expect(await titleOf('/?q=s')).toBe('My Store');

    const listing = await app.inject('/?q=silk');
    expect(listing.body).toContain('<meta property="og:title" content="Search: silk · My Store">');
  });

  it('escapes a search typed into the title and the Open Graph tags', async () => {
    const typed = '</title><script>alert(1)</script>"><b>x';
    const res = await app.inject(`/?q=${encodeURIComponent(typed)}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).not.toContain('<b>x');
    expect(res.body).toContain(
      '<title>Search: &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;b&gt;x · My Store</title>',
    );
    expect(res.body).toContain(
      '<meta property="og:title" content="Search: &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;b&gt;x · My Store">',
    );
  });

  it('redirects /products/:slug to the product, or to the 404 page', async () => {
    const hit = await app.inject('/products/ivory-sherwani');
    expect(hit.statusCode).toBe(302);
    expect(hit.headers.location).toBe('/product/plink_2');
    expect((await app.inject('/products/IVORY%20Sherwani')).headers.location).toBe('/product/plink_2');
    // A shared link's colour goes along; nothing else of its query does.
    expect((await app.inject('/products/ivory-sherwani?colour=Sea%20Green&x=1')).headers.location).toBe(
      '/product/plink_2?colour=Sea+Green',
    );
    const miss = await app.inject('/products/no-such-thing');
    expect(miss.headers.location).toBe('/not-found');
    expect((await app.inject('/not-found')).statusCode).toBe(404);
  });

  it('serves the accessibility statement with its own title, description and canonical link', async () => {
    const res = await app.inject('/accessibility');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Accessibility statement · My Store</title>');
    expect(res.body).toContain('<link rel="canonical" href="https://shop.example/accessibility">');
    expect(res.body).toContain(
      '<meta name="description" content="The accessibility standard this store aims for (WCAG 2.2 level AA),',
    );
  });

  it('lists the home page, About, the accessibility statement and every product in /sitemap.xml', async () => {
    const res = await app.inject('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    expect(res.body).toContain('<loc>https://shop.example/</loc>');
    expect(res.body).toContain('<loc>https://shop.example/about</loc>');
    expect(res.body).toContain('<loc>https://shop.example/accessibility</loc>');
    expect(res.body).toContain('<loc>https://shop.example/product/plink_1</loc>');
    expect(res.body).toContain(
      '<url><loc>https://shop.example/product/plink_2</loc><lastmod>2026-05-06</lastmod></url>',
    );
  });

  it('keeps /admin and /api out of robots.txt and points to the sitemap', async () => {
    const res = await app.inject('/robots.txt');
    expect(res.body).toContain('Disallow: /admin');
    expect(res.body).toContain('Disallow: /api/');
    expect(res.body).toContain('Sitemap: https://shop.example/sitemap.xml');
  });
});

describe('injectHead', () => {
  it("inserts titles and descriptions as written, $& and $' included", async () => {
    const { injectHead } = await import('./seo.js');
    const html = injectHead(TEMPLATE, {
      title: "Kurta for $& and $' and $` days",
      description: 'Only $& $$ today',
      tags: '<meta name="x" content="$&">',
    });
    expect(html).toContain('<title>Kurta for $&amp; and $&#39; and $` days</title>');
    expect(html).toContain('content="Only $&amp; $$ today"');
    expect(html).toContain('<meta name="x" content="$&"></head>');
    expect(html).toContain('<div id="root"></div>');
  });
});
