import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProducts } from '../test-support/fixtures.js';
import { googleVariantProblems, schemaOrgProblems } from '../test-support/schema-org.js';
import { buildTestApp, createTestStore, type TestStore } from '../test-support/test-store.js';

const TEMPLATE =
  '<!doctype html><html><head><meta name="description" content="default"><title>Store</title></head><body><div id="root"></div></body></html>';
const NOW = '2026-11-22T10:00:00.000Z';

function photo(id: string, productId: string, url: string, order: number) {
  return {
    id,
    product_id: productId,
    url,
    file_name: url.split('/').pop() ?? url,
    media_type: 'image' as const,
    display_order: order,
    alt_text: null,
    created_at: NOW,
    updated_at: NOW,
  };
}

const colour = (name: string, more: Record<string, unknown> = {}) => ({
  name,
  hex: null,
  skuSuffix: null,
  priceMinor: null,
  images: [],
  sizeDetail: null,
  ...more,
});

/**
 * A product in colours as a shopper's first request gets it, the head (src/http/seo.ts) and the client's own
 * page rendered on the server (the server bundle is the client's source, compiled by vitest).
 */
describe('a product page in colours, rendered on the server', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let root: string;
  beforeAll(async () => {
    store = await createTestStore({ env: { PUBLIC_URL: 'https://shop.example' } });
    await insertProducts(store.handle.db, [
      {
        id: 'kurta',
        title: 'Lawn Kurta',
        sku: 'LK-1',
        manufacturer: 'Zarnigar Atelier',
        price_minor: 12000,
        sizes: '["S","M","L"]',
        size_detail: JSON.stringify({ S: { 'Chest (in)': '36' } }),
        colors: '["Mint","Teal","Maroon"]',
        colour_options: JSON.stringify([
          colour('Mint', { images: ['/media/mint.jpg'] }),
          colour('Teal', {
            hex: '#1f7a6d',
            skuSuffix: '-TEAL',
            priceMinor: 13500,
            images: ['/media/teal-1.jpg', '/media/teal-2.jpg'],
            // Teal is cut narrower: its own chart, as the owner said.
            sizeDetail: { S: { 'Chest (in)': '35' } },
          }),
          colour('Maroon', { images: ['/media/maroon.jpg'] }),
        ]),
      },
    ]);
    // A row of its own: rows inserted together must name the same columns.
    await insertProducts(store.handle.db, [
      { id: 'plain', title: 'Ivory Sherwani', sku: 'IS-1', sizes: '["M","L"]' },
    ]);
    await store.handle.db
      .insertInto('media')
      .values([
        photo('m0', 'kurta', '/media/all.jpg', 0),
        photo('m1', 'kurta', '/media/mint.jpg', 1),
        photo('m2', 'kurta', '/media/teal-1.jpg', 2),
        photo('m3', 'kurta', '/media/teal-2.jpg', 3),
        photo('m4', 'kurta', '/media/maroon.jpg', 4),
      ])
      .execute();
    // All colours: M none left; teal has its own M (2 left) and S (none left); maroon its own L (none left).
    await store.handle.db
      .insertInto('size_stock')
      .values([
        { product_id: 'kurta', colour: '', size: 'M', on_hand: 0, reserved: 0 },
        { product_id: 'kurta', colour: 'teal', size: 'M', on_hand: 2, reserved: 0 },
        { product_id: 'kurta', colour: 'teal', size: 'S', on_hand: 0, reserved: 0 },
        { product_id: 'kurta', colour: 'maroon', size: 'L', on_hand: 0, reserved: 0 },
        { product_id: 'plain', colour: '', size: 'M', on_hand: 0, reserved: 0 },
      ])
      .execute();
    root = mkdtempSync(path.join(tmpdir(), 'store-render-'));
    mkdirSync(path.join(root, 'client'));
    mkdirSync(path.join(root, 'ssr'));
    writeFileSync(path.join(root, 'client', 'index.html'), TEMPLATE);
    const entry = path.resolve(import.meta.dirname, '../../client/src/entry-server.tsx');
    writeFileSync(
      path.join(root, 'ssr', 'entry-server.js'),
      `export { renderPage } from ${JSON.stringify(entry)};`,
    );
    app = await buildTestApp(store, { clientDir: path.join(root, 'client') });
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  const page = async (url: string) => {
    const res = await app.inject(url);
    expect(res.statusCode).toBe(200);
    return res.body;
  };
  const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
  const metaOf = (html: string, property: string) =>
    new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(html)?.[1];
  const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1];
  const jsonLdOf = (html: string) =>
    JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as Record<
      string,
      unknown
    >;
  /** The app's markup alone (the rendered root), not the head. */
  const bodyOf = (html: string) => html.slice(html.indexOf('<div id="root">'));
  const radio = (html: string, value: string) =>
    new RegExp(`<input[^>]*type="radio"[^>]*value="${value}"[^>]*>`).exec(bodyOf(html))?.[0] ?? '';
  /** The gallery's pictures in order: the main one, then the thumbnails. */
  const galleryOf = (html: string) => {
    const body = bodyOf(html);
    const gallery = body.slice(0, body.indexOf('data-testid="product-detail"'));
    return [...gallery.matchAll(/<img[^>]*src="([^"]*)"/g)].map((m) => m[1]);
  };

  it('renders a linked colour chosen: its title, canonical link, picture, price, photos first and sold-out sizes', async () => {
    const html = await page('/product/kurta?colour=teal&utm_source=mail');
    expect(titleOf(html)).toBe('Lawn Kurta — Teal · My Store');
    expect(metaOf(html, 'og:title')).toBe('Lawn Kurta — Teal');
    expect(canonicalOf(html)).toBe('https://shop.example/product/kurta?colour=teal');
    expect(metaOf(html, 'og:url')).toBe('https://shop.example/product/kurta?colour=teal');
    expect(metaOf(html, 'og:image')).toBe('https://shop.example/media/teal-1.jpg');
    expect(metaOf(html, 'product:price:amount')).toBe('135.00');

    expect(radio(html, 'teal')).toContain('checked');
    expect(radio(html, 'mint')).not.toContain('checked');
    // Teal's photos first, then the one of every colour; mint's and maroon's are not teal's.
    expect(galleryOf(html)).toEqual([
      '/media/teal-1.jpg',
      '/media/teal-1.jpg',
      '/media/teal-2.jpg',
      '/media/all.jpg',
    ]);
    // Teal S is gone (its own count); teal M is left though the all-colours M is not.
    expect(radio(html, 'S')).toContain('disabled');
    expect(radio(html, 'S')).toContain('aria-label="S, sold out"');
    expect(radio(html, 'M')).not.toContain('disabled');
    expect(radio(html, 'L')).not.toContain('disabled');
    expect(bodyOf(html)).toContain('USD 135.00');
    expect(bodyOf(html)).toContain('LK-1-TEAL');
    // Its own chart (and so the fit finder's), not the product's.
    expect(bodyOf(html)).toMatch(/<td[^>]*>35<\/td>/);
    expect(bodyOf(html)).not.toMatch(/<td[^>]*>36<\/td>/);
  });

  it('reads any spelling of the colour as the same page, and an unknown colour as none', async () => {
    const shouted = await page('/product/kurta?colour=TEAL');
    expect(canonicalOf(shouted)).toBe('https://shop.example/product/kurta?colour=teal');
    expect(radio(shouted, 'teal')).toContain('checked');

    const unknown = await page('/product/kurta?colour=purple');
    expect(titleOf(unknown)).toBe('Lawn Kurta · My Store');
    expect(canonicalOf(unknown)).toBe('https://shop.example/product/kurta');
    expect(metaOf(unknown, 'og:image')).toBe('https://shop.example/media/all.jpg');
    // No colour named: the first with something left is chosen to buy (mint), its photos first, its marks.
    expect(radio(unknown, 'mint')).toContain('checked');
    expect(galleryOf(unknown)[0]).toBe('/media/mint.jpg');
    expect(radio(unknown, 'M')).toContain('disabled');
    expect(bodyOf(unknown)).toContain('USD 120.00');

    const maroon = await page('/product/kurta?colour=maroon');
    expect(radio(maroon, 'M')).toContain('disabled'); // the all-colours count, maroon having none of its own
    expect(radio(maroon, 'L')).toContain('disabled');
    expect(radio(maroon, 'S')).not.toContain('disabled');
    expect(bodyOf(maroon)).toMatch(/<td[^>]*>36<\/td>/); // no chart of its own: the product's
  });

  it('describes a product in colours as a ProductGroup that keeps to schema.org and Google’s variant rules', async () => {
    const ld = jsonLdOf(await page('/product/kurta?colour=teal'));
    expect(schemaOrgProblems(ld)).toEqual([]);
    expect(googleVariantProblems(ld)).toEqual([]);
    expect(ld).toMatchObject({
      '@type': 'ProductGroup',
      name: 'Lawn Kurta',
      url: 'https://shop.example/product/kurta',
      productGroupID: 'LK-1',
      brand: { '@type': 'Brand', name: 'Zarnigar Atelier' },
      variesBy: ['https://schema.org/color', 'https://schema.org/size'],
    });
    const variants = ld.hasVariant as Array<{
      sku: string;
      color: string;
      size: string;
      image: string[];
      offers: { price: string; availability: string; url: string };
    }>;
    expect(variants.map((v) => [v.sku, v.offers.availability.replace('https://schema.org/', '')])).toEqual([
      ['LK-1-MINT-S', 'InStock'],
      ['LK-1-MINT-M', 'OutOfStock'],
      ['LK-1-MINT-L', 'InStock'],
      ['LK-1-TEAL-S', 'OutOfStock'],
      ['LK-1-TEAL-M', 'InStock'],
      ['LK-1-TEAL-L', 'InStock'],
      ['LK-1-MAROON-S', 'InStock'],
      ['LK-1-MAROON-M', 'OutOfStock'],
      ['LK-1-MAROON-L', 'OutOfStock'],
    ]);
    const tealM = variants[4];
    expect(tealM).toMatchObject({
      name: 'Lawn Kurta (Teal / M)',
      color: 'Teal',
      size: 'M',
      image: ['https://shop.example/media/teal-1.jpg', 'https://shop.example/media/teal-2.jpg'],
      offers: {
        price: '135.00',
        priceCurrency: 'USD',
        url: 'https://shop.example/product/kurta?colour=teal',
      },
    });
    expect(variants[0]?.offers.price).toBe('120.00');
  });

  it('keeps the Product JSON-LD of a product without colours, within schema.org too', async () => {
    const ld = jsonLdOf(await page('/product/plain?colour=teal'));
    expect(ld['@type']).toBe('Product');
    expect(schemaOrgProblems(ld)).toEqual([]);
    expect((ld.offers as Array<{ availability: string }>).map((o) => o.availability)).toEqual([
      'https://schema.org/OutOfStock',
      'https://schema.org/InStock',
    ]);
    // A colour it does not have names nothing: the page's own head.
    expect(canonicalOf(await page('/product/plain?colour=teal'))).toBe('https://shop.example/product/plain');
  });

  it('finds what strays from schema.org (the check is not a formality)', () => {
    expect(
      schemaOrgProblems({
        '@context': 'https://schema.org',
        '@type': 'ProductGroup',
        name: 'x',
        colour: 'Teal',
        availability: 'https://schema.org/InStock',
        hasVariant: [{ '@type': 'Offer', price: '1.00' }],
        offers: { '@type': 'Offer', availability: 'In stock', url: '/relative' },
      }),
    ).toEqual([
      '$.colour: no such schema.org property',
      '$.availability: not a property of ProductGroup',
      '$.hasVariant[0]: a Offer is not in the range of hasVariant',
      '$.offers.availability: "In stock" is not in the range of availability',
      '$.offers.url: "/relative" is not in the range of url',
    ]);
    expect(googleVariantProblems({ '@type': 'ProductGroup', name: 'x', variesBy: ['colour'] })).toEqual([
      'group: no productGroupID',
      'group: variesBy names no schema.org property: ["colour"]',
      'group: no hasVariant',
    ]);
  });
});
