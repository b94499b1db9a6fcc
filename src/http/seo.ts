import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import {
  countProducts,
  findProductDetail,
  sitemapProducts,
} from '../modules/catalogue/catalogue.repository.js';
import { findProductIdBySlug } from '../modules/catalogue/catalogue-search.repository.js';
import { readSiteSettings, readTimeZone } from '../modules/settings/settings.repository.js';
import { clipDescription } from '../shared/clip-text.js';
import { findColour } from '../shared/colours.js';
import { listingTitle, parseView } from '../shared/listing.js';
import { minorToMajorString } from '../shared/money.js';
import { isClientRoute } from '../shared/routes.js';
import { ACCESSIBILITY_PAGE } from '../shared/site.js';
import { COLOUR_PAGE_PARAM } from '../shared/ssr-contract.js';
import { colourUrl, productJsonLd } from './product-json-ld.js';

export type PageHead = { title: string; description: string; tags: string; status?: number };

const SITEMAP_CHUNK = 45_000;

/** Pages with a canonical address besides products: the part their title adds, and their own description. */
const STORE_PAGES: Record<string, { section: string; description?: string }> = {
  '/': { section: '' },
  '/about': { section: 'About' },
  '/accessibility': { section: ACCESSIBILITY_PAGE.title, description: ACCESSIBILITY_PAGE.description },
};

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** JSON inside <script type="application/ld+json">: no "</script>" or HTML comment can break out. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function absolute(publicUrl: string, url: string): string {
  try {
    return new URL(url, `${publicUrl}/`).href;
  } catch {
    return `${publicUrl}/placeholder.svg`;
  }
}

function meta(attrs: Record<string, string>): string {
  return `<meta ${Object.entries(attrs)
    .map(([k, v]) => `${k}="${escapeHtml(v)}"`)
    .join(' ')}>`;
}

/** What a missing page's head says besides its title: no search engine keeps it (its status is 404 too). */
const NOT_FOUND_TAGS = meta({ name: 'robots', content: 'noindex' });

/**
 * The head a page is served with, so crawlers and link previews see real titles, descriptions, canonical
 * links, Open Graph tags and JSON-LD (a Product, or a ProductGroup for a product in colours) without running
 * JavaScript. `search` is the query string of the home page's listing (its search and filters): a listing is
 * titled by what it lists. A product page's is its colour (pageSearch): a link to one colour is its page.
 */
export async function pageHead(
  db: Db,
  publicUrl: string,
  pathname: string,
  search = '',
): Promise<PageHead | null> {
  const settings = await readSiteSettings(db);
  const productMatch = /^\/product\/([^/]+)\/?$/.exec(pathname);
  if (productMatch) {
    let id: string;
    try {
      id = decodeURIComponent(productMatch[1] ?? '');
    } catch {
      return null;
    }
    const product = id.length <= 100 ? await findProductDetail(db, id) : null;
    if (!product) {
      return {
        title: `Product not found · ${settings.storeName}`,
        description: '',
        tags: NOT_FOUND_TAGS,
        status: 404,
      };
    }
    const productUrl = `${publicUrl}/product/${encodeURIComponent(product.id)}`;
    // A link naming one of its colours is that colour's page: its title, address, picture and price. Any
    // other value names no colour (the page's own head).
    const colour = findColour(product.colours, new URLSearchParams(search).get(COLOUR_PAGE_PARAM));
    const url = colour ? colourUrl(productUrl, colour) : productUrl;
    const images = product.media
      .filter((m) => m.mediaType === 'image')
      .map((m) => absolute(publicUrl, m.url));
    const image = colour?.images[0] ? absolute(publicUrl, colour.images[0]) : images[0];
    const description = clipDescription(product.description || product.title);
    const name = colour ? `${product.title} — ${colour.name}` : product.title;
    const title = `${name} · ${settings.storeName}`;
    const jsonLd = productJsonLd(
      product,
      productUrl,
      description,
      (u) => absolute(publicUrl, u),
      await readTimeZone(db),
    );
    // The price charged: the sale's while one runs for the page's colour (or the product).
    const sale = colour ? colour.sale : product.sale;
    const price = minorToMajorString(
      sale?.salePriceMinor ?? colour?.priceMinor ?? product.priceMinor,
      product.currency,
    );
    const tags = [
      `<link rel="canonical" href="${escapeHtml(url)}">`,
      meta({ property: 'og:type', content: 'product' }),
      meta({ property: 'og:site_name', content: settings.storeName }),
      meta({ property: 'og:title', content: name }),
      meta({ property: 'og:description', content: description }),
      meta({ property: 'og:url', content: url }),
      ...(image ? [meta({ property: 'og:image', content: image })] : []),
      meta({ property: 'product:price:amount', content: price }),
      meta({ property: 'product:price:currency', content: product.currency.toUpperCase() }),
      meta({ name: 'twitter:card', content: 'summary_large_image' }),
      meta({ name: 'twitter:title', content: name }),
      meta({ name: 'twitter:description', content: description }),
      `<script type="application/ld+json">${jsonForScript(jsonLd)}</script>`,
    ].join('');
    return { title, description, tags };
  }
  const page = Object.hasOwn(STORE_PAGES, pathname) ? STORE_PAGES[pathname] : undefined;
  if (page) {
    // The listing's own words, as the browser's title says them (client/src/features/catalogue/home-page.tsx).
    // Its canonical address stays the page's own, as before.
    const listing = pathname === '/' && search ? listingTitle(parseView(search)) : null;
    const section = listing ?? page.section;
    const title = section
      ? `${section} · ${settings.storeName}`
      : settings.tagline
        ? `${settings.storeName} · ${settings.tagline}`
        : settings.storeName;
    const description = clipDescription(
      page.description ?? (settings.tagline || settings.aboutText || settings.storeName),
    );
    const url = `${publicUrl}${pathname}`;
    const tags = [
      `<link rel="canonical" href="${escapeHtml(url)}">`,
      meta({ property: 'og:type', content: 'website' }),
      meta({ property: 'og:site_name', content: settings.storeName }),
      meta({ property: 'og:title', content: title }),
      meta({ property: 'og:description', content: description }),
      meta({ property: 'og:url', content: url }),
      ...(settings.banner?.imageUrl
        ? [meta({ property: 'og:image', content: absolute(publicUrl, settings.banner.imageUrl) })]
        : []),
    ].join('');
    return { title, description, tags };
  }
  if (!isClientRoute(pathname)) {
    return {
      title: `Page not found · ${settings.storeName}`,
      description: '',
      tags: NOT_FOUND_TAGS,
      status: 404,
    };
  }
  return null;
}

/**
 * Puts a page's head into the built index.html (its <title> and description are replaced). Replaced by
 * functions, not strings: a title with $& or $' in it must be inserted as written.
 */
export function injectHead(template: string, head: PageHead): string {
  return template
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(head.title)}</title>`)
    .replace(/<meta name="description" content="[^"]*"\s*\/?>/, () =>
      head.description ? meta({ name: 'description', content: head.description }) : '',
    )
    .replace('</head>', () => `${head.tags}</head>`);
}

function xml(text: string): string {
  return escapeHtml(text);
}

export function registerSeo(app: FastifyInstance, opts: { db: Db; publicUrl: string }): void {
  const { db, publicUrl } = opts;

  app.get('/robots.txt', async (_req, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(`User-agent: *\nDisallow: /admin\nDisallow: /api/\n\nSitemap: ${publicUrl}/sitemap.xml\n`),
  );

  const productCount = () => countProducts(db);
  const pageEntries = () =>
    Object.keys(STORE_PAGES).map((pathname) => `<url><loc>${xml(`${publicUrl}${pathname}`)}</loc></url>`);

  const urlset = (entries: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;

  const productEntries = async (offset: number, limit: number) =>
    (await sitemapProducts(db, offset, limit)).map(
      (r) =>
        `<url><loc>${xml(`${publicUrl}/product/${encodeURIComponent(r.id)}`)}</loc><lastmod>${xml(r.updatedAt.slice(0, 10))}</lastmod></url>`,
    );

  // One sitemap while it fits the protocol's 50,000-URL limit; above that an index of product sitemaps.
  app.get('/sitemap.xml', async (_req, reply) => {
    reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600');
    const count = await productCount();
    const pages = pageEntries();
    if (count <= SITEMAP_CHUNK)
      return reply.send(urlset([...pages, ...(await productEntries(0, SITEMAP_CHUNK))]));
    const chunks = Math.ceil(count / SITEMAP_CHUNK);
    const sitemaps = [
      `${publicUrl}/sitemap-pages.xml`,
      ...Array.from({ length: chunks }, (_, i) => `${publicUrl}/sitemap-products-${i + 1}.xml`),
    ];
    return reply.send(
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps
        .map((u) => `<sitemap><loc>${xml(u)}</loc></sitemap>`)
        .join('\n')}\n</sitemapindex>\n`,
    );
  });
  app.get('/sitemap-pages.xml', async (_req, reply) =>
    reply.type('application/xml; charset=utf-8').send(urlset(pageEntries())),
  );
  app.get<{ Params: { n: string } }>('/sitemap-products-:n.xml', async (req, reply) => {
    const n = Number(req.params.n);
    const count = await productCount();
    if (!Number.isInteger(n) || n < 1 || (n - 1) * SITEMAP_CHUNK >= count) return reply.code(404).send();
    return reply
      .type('application/xml; charset=utf-8')
      .send(urlset(await productEntries((n - 1) * SITEMAP_CHUNK, SITEMAP_CHUNK)));
  });

  // The server answers old-style product links with a real redirect, as the client does, keeping the colour
  // a shared link chose (the product page reads it; nothing else of the query is carried).
  app.get<{ Params: { slug: string }; Querystring: Record<string, unknown> }>(
    '/products/:slug',
    async (req, reply) => {
      const slug = req.params.slug.slice(0, 300);
      const id = slug.trim() ? await findProductIdBySlug(db, slug) : null;
      if (!id) return reply.redirect('/not-found', 302);
      const colour = req.query[COLOUR_PAGE_PARAM];
      const keep =
        typeof colour === 'string' && colour.trim() !== ''
          ? `?${new URLSearchParams({ [COLOUR_PAGE_PARAM]: colour.slice(0, 100) })}`
          : '';
      return reply.redirect(`/product/${encodeURIComponent(id)}${keep}`, 302);
    },
  );
}
