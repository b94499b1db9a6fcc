import { type SqlBool, sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { jsonArrayText, jsonColumn, jsonFirst } from '../../db/engine-sql.js';
import { colourOptionsOf, parseJsonArray, parseJsonRecord } from '../../db/json-columns.js';
import type {
  CardColour,
  ProductCard,
  ProductColour,
  ProductDetail,
  ProductMedia,
  SizeDetail,
} from '../../shared/catalogue.js';
import { colourKey, colourSlug } from '../../shared/colours.js';
import { parseVariants, responsiveFields, responsiveImage } from '../../shared/responsive-image.js';
import { storefrontRevision } from '../discounts/sale-timeline.js';
import { soldOutStockOf } from '../stock/stock.repository.js';
import { runningSalesOf, saleEnd, salePriceOf } from './card-sale.js';

const DESCRIPTION_PREVIEW = 280;

function isString(v: unknown): v is string {
  return typeof v === 'string' || typeof v === 'number';
}

function isMeasurements(v: unknown): v is Record<string, string> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function normaliseSizeDetail(raw: Record<string, Record<string, string>>): SizeDetail {
  const out: SizeDetail = {};
  for (const [size, measurements] of Object.entries(raw)) {
    // A colour's chart comes from a JSON column read without a schema: a row that is not one is left out.
    if (!isMeasurements(measurements)) continue;
    const row: Record<string, string> = {};
    for (const [name, value] of Object.entries(measurements)) if (isString(value)) row[name] = String(value);
    out[size] = row;
  }
  return out;
}

/**
 * A card with its product's first image media row joined once (one index search for it, then its row), its url, alt text
 * and web variants read from that row; without one, the legacy images list's first. Three correlated
 * subqueries, one per column, had cost two thirds of a page of cards' read (0.49 against 0.15 ms for 20
 * cards at 100,000 products).
 */
export function cardColumns(db: DbOrTx) {
  return db
    .selectFrom('products as p')
    .leftJoin('media as fm', (join) =>
      join.on(
        sql<SqlBool>`fm.id = (SELECT m.id FROM media m WHERE m.product_id = p.id AND m.media_type = 'image'
          ORDER BY m.display_order, m.id LIMIT 1)`,
      ),
    )
    .select([
      'p.id',
      'p.title',
      sql<string>`substr(p.description, 1, ${DESCRIPTION_PREVIEW})`.as('description'),
      'p.manufacturer',
      'p.price_minor',
      'p.currency',
      'p.sizes',
      'p.colour_options',
      // What a sale of chosen tags covers (decision 0037).
      'p.tags',
      'p.page_order',
      sql<string | null>`coalesce(fm.url, ${jsonFirst(db, sql.ref('p.images'))})`.as('image_url'),
      'fm.alt_text as image_alt',
      // Web variants of that image, as JSON [width, height, variants], or null when it has none.
      sql<string | null>`CASE WHEN fm.id IS NULL OR fm.variants = '[]' THEN NULL
        ELSE ${jsonArrayText(db, [sql.ref('fm.width'), sql.ref('fm.height'), jsonColumn(db, sql.ref('fm.variants'))])} END`.as(
        'image_meta',
      ),
      sql<number>`p.stripe_payment_link IS NOT NULL AND p.stripe_payment_link <> ''`.as('has_payment_link'),
    ]);
}

export type CardRow = {
  id: string;
  title: string;
  description: string;
  manufacturer: string;
  price_minor: number;
  currency: string;
  sizes: string;
  colour_options: string;
  tags: string;
  image_url: string | null;
  image_alt: string | null;
  image_meta: string | null;
  has_payment_link: number;
};

/** srcset/width/height for a card's image from `image_meta`; nothing for images without variants. */
function cardImageResponsive(meta: string | null) {
  if (!meta) return {};
  try {
    const value: unknown = JSON.parse(meta);
    if (!Array.isArray(value)) return {};
    const [width, height, variants] = value as unknown[];
    return responsiveFields(
      parseVariants(JSON.stringify(variants ?? [])),
      typeof width === 'number' ? width : null,
      typeof height === 'number' ? height : null,
    );
  } catch {
    return {};
  }
}

export function toCard(row: CardRow): ProductCard {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    manufacturer: row.manufacturer,
    priceMinor: row.price_minor,
    currency: row.currency,
    sizes: parseJsonArray(row.sizes),
    // Uploaded images add srcSet (and avifSrcSet), width and height; other images stay {url, alt}.
    image: row.image_url
      ? { url: row.image_url, alt: row.image_alt ?? row.title, ...cardImageResponsive(row.image_meta) }
      : null,
    hasPaymentLink: row.has_payment_link === 1,
    // With soldOutSizes, filled in from the stock (card-cache.ts, withSoldOut), not per row.
    soldOut: false,
    ...cardColours(row.colour_options),
  };
}

/**
 * A card's swatches: each colour's name, swatch colour, first photo and own price. Nothing for a product
 * without colours, whose card's JSON stays as it was.
 */
function cardColours(text: string): { colours?: CardColour[] } {
  // Most products of a catalogue may have none: no parse for them.
  if (text === '[]' || text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (!Array.isArray(value)) return {};
  // What colourOptionsOf keeps of a colour, read for the four fields a card shows in one loop: a card read
  // made the whole ColourOption of each (its photos and measurements) only to drop most of it.
  const colours: CardColour[] = [];
  for (const raw of value as unknown[]) {
    if (!raw || typeof raw !== 'object') continue;
    const c = raw as Record<string, unknown>;
    if (typeof c.name !== 'string') continue;
    const colour: CardColour = { name: c.name };
    if (typeof c.hex === 'string') colour.hex = c.hex;
    const image = Array.isArray(c.images)
      ? (c.images as unknown[]).find((i) => typeof i === 'string')
      : undefined;
    if (typeof image === 'string') colour.image = image;
    if (Number.isSafeInteger(c.priceMinor)) colour.priceMinor = c.priceMinor as number;
    colours.push(colour);
  }
  return colours.length > 0 ? { colours } : {};
}

function responsiveImageOf(media: ProductMedia) {
  return responsiveImage(media) ?? {};
}

/**
 * A product's page. `revision` (the storefront revision the request read; read here without it) says which
 * sales run: the page's sale prices are of its instant (card-sale.ts), as its cards' are.
 */
export async function findProductDetail(
  db: DbOrTx,
  id: string,
  opts: { revision?: string | null | undefined } = {},
): Promise<ProductDetail | null> {
  const row = await db
    .selectFrom('products as p')
    .select([
      'p.id',
      'p.title',
      'p.description',
      'p.manufacturer',
      'p.manufacturer_url',
      'p.sku',
      'p.price_minor',
      'p.currency',
      'p.sizes',
      'p.size_detail',
      'p.colors',
      'p.colour_options',
      'p.tags',
      'p.images',
      'p.stripe_payment_link',
      'p.product_link',
      'p.created_at',
      'p.updated_at',
    ])
    .where('p.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const mediaRows = await db
    .selectFrom('media')
    .select([
      'id',
      'url',
      'file_name',
      'media_type',
      'alt_text',
      'display_order',
      'width',
      'height',
      'variants',
    ])
    .where('product_id', '=', id)
    .orderBy('display_order')
    .orderBy('id')
    .execute();
  const media: ProductMedia[] = mediaRows.map((m) => ({
    id: m.id,
    url: m.url,
    fileName: m.file_name,
    mediaType: m.media_type,
    altText: m.alt_text,
    displayOrder: m.display_order,
    ...(m.media_type === 'image' ? responsiveFields(parseVariants(m.variants), m.width, m.height) : {}),
  }));
  if (media.length === 0) {
    // Products imported from a plain catalogue file may have only image URLs (the images column), no media rows.
    parseJsonArray(row.images).forEach((url, i) => {
      media.push({
        id: `legacy-${i}`,
        url,
        fileName: url.split('/').pop() ?? url,
        mediaType: 'image',
        altText: null,
        displayOrder: i,
      });
    });
  }
  const firstImage = media.find((m) => m.mediaType === 'image');
  const sizes = parseJsonArray(row.sizes);
  // The revision is read before either query starts: awaited inside the list, its failure would leave the
  // first query's rejection with no handler, which ends the process (seen when PostgreSQL ended connections).
  const revision = opts.revision ?? (await storefrontRevision(db));
  const [stockOf, running] = await Promise.all([soldOutStockOf(db, [row.id]), runningSalesOf(db, revision)]);
  const stock = stockOf.get(row.id);
  const tags = parseJsonArray(row.tags);
  const saleOf = (colour: string | null, unitPriceMinor: number) => {
    if (!running) return null;
    const item = { productId: row.id, tags, colourKey: colour, unitPriceMinor, currency: row.currency };
    const price = salePriceOf(running, item);
    return price ? { ...price, endsAt: saleEnd(running, item) } : null;
  };
  // The product's own marks stay what they were: a size sold out in every colour (all a card can say).
  const soldOutSizes = [...(stock?.sizes ?? [])].filter((s) => sizes.includes(s));
  // A colour names only photos this page shows: a URL left over from an edited or hand-written file is not one.
  const photoUrls = new Set(media.filter((m) => m.mediaType === 'image').map((m) => m.url));
  const colours = colourOptionsOf(row.colour_options).map(
    (c): ProductColour => ({
      name: c.name,
      slug: colourSlug(c.name),
      hex: c.hex,
      skuSuffix: c.skuSuffix,
      priceMinor: c.priceMinor,
      sale: saleOf(colourKey(c.name), c.priceMinor ?? row.price_minor),
      images: c.images.filter((url) => photoUrls.has(url)),
      sizeDetail: c.sizeDetail ? normaliseSizeDetail(c.sizeDetail) : null,
      soldOutSizes: sizes.filter((s) => stock?.byColour.get(colourKey(c.name))?.has(s) === true),
    }),
  );
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    manufacturer: row.manufacturer,
    manufacturerUrl: row.manufacturer_url,
    sku: row.sku,
    priceMinor: row.price_minor,
    currency: row.currency,
    sizes: parseJsonArray(row.sizes),
    sizeDetail: normaliseSizeDetail(parseJsonRecord(row.size_detail, isMeasurements)),
    colors: parseJsonArray(row.colors),
    colours,
    sale: saleOf(null, row.price_minor),
    tags,
    image: firstImage
      ? { ...responsiveImageOf(firstImage), url: firstImage.url, alt: firstImage.altText ?? row.title }
      : null,
    hasPaymentLink: !!row.stripe_payment_link,
    soldOut: sizes.length > 0 && soldOutSizes.length === sizes.length,
    soldOutSizes,
    productLink: row.product_link,
    stripePaymentLink: row.stripe_payment_link,
    media,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function countProducts(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of products for the sitemap, in the storefront's order. */
export async function sitemapProducts(
  db: DbOrTx,
  offset: number,
  limit: number,
): Promise<Array<{ id: string; updatedAt: string }>> {
  const rows = await db
    .selectFrom('products')
    .select(['id', 'updated_at'])
    .orderBy('page_order')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({ id: r.id, updatedAt: r.updated_at }));
}
