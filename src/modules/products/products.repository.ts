import { sql } from 'kysely';
import type { DbOrTx, ProductsTable } from '../../db/database.js';
import { jsonArrayValues } from '../../db/engine-sql.js';
import { colourOptionsOf, parseJsonArray, parseJsonRecord } from '../../db/json-columns.js';
import { MAJOR_AMOUNT_SQL_FUNCTION } from '../../db/sql-functions.js';
import { ALL_COLOURS, type ColourOption } from '../../shared/colours.js';
import { minorToMajorString } from '../../shared/money.js';
import type { ProductFields } from '../../shared/product-input.js';
import { slugify } from '../../shared/slug.js';
import { colourName, setStock, stockMapOf, stockOf } from '../stock/stock.repository.js';

export type AdminProductRow = {
  id: string;
  sku: string;
  title: string;
  priceMinor: number;
  currency: string;
  pageOrder: number;
  tags: string[];
  mediaCount: number;
  updatedAt: string;
  /** The colours' names, in the product's order. */
  colours: string[];
  /** Tracked sizes: on hand, and held by open checkouts (an untracked size is absent); colour null: all colours. */
  stock: Array<{ colour: string | null; size: string; onHand: number; reserved: number }>;
};

/** The form's view of a product (decimal price text, plain arrays), plus its version stamp. */
export type AdminProduct = Omit<ProductRecord, 'images'> & {
  priceMinor: number;
  createdAt: string;
  updatedAt: string;
};

const SORT_COLUMNS = {
  id: 'p.id',
  sku: 'p.sku',
  title: 'p.title',
  price: 'p.price_minor',
  currency: 'p.currency',
  page_order: 'p.page_order',
  created_at: 'p.created_at',
} as const;

/** LIKE treats % and _ as wildcards; a search for them must find them literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listAdminProducts(
  db: DbOrTx,
  opts: {
    q?: string | undefined;
    sort: keyof typeof SORT_COLUMNS;
    dir: 'asc' | 'desc';
    offset: number;
    limit: number;
  },
): Promise<{ items: AdminProductRow[]; total: number; nextCursor: number | null }> {
  const q = opts.q?.trim().toLowerCase() ?? '';
  let base = db.selectFrom('products as p');
  if (q) {
    const pattern = likePattern(q);
    // Title, SKU, price as the admin sees it (89.00, 1500 yen, 1.500 dinar) and any tag, case-insensitively.
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`lower(p.title) LIKE ${pattern} ESCAPE '\\'`,
        sql<boolean>`lower(p.sku) LIKE ${pattern} ESCAPE '\\'`,
        sql<boolean>`${sql.raw(MAJOR_AMOUNT_SQL_FUNCTION)}(p.price_minor, p.currency) LIKE ${pattern} ESCAPE '\\'`,
        sql<boolean>`EXISTS (SELECT 1 FROM ${jsonArrayValues(db, sql.ref('p.tags'))} WHERE lower(t.value) LIKE ${pattern} ESCAPE '\\')`,
      ]),
    );
  }
  const rows = await base
    .select([
      'p.id',
      'p.sku',
      'p.title',
      'p.price_minor',
      'p.currency',
      'p.page_order',
      'p.tags',
      'p.colors',
      'p.updated_at',
      (eb) =>
        eb
          .selectFrom('media as m')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('m.product_id', '=', 'p.id')
          .as('media_count'),
    ])
    .orderBy(SORT_COLUMNS[opts.sort], opts.dir)
    .orderBy('p.id', opts.dir)
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  const next = opts.offset + rows.length;
  // The counts as stored (no hold counts as ended before the epoch): what the admin edits.
  const stock = await stockOf(
    db,
    rows.map((r) => r.id),
    new Date(0),
  );
  return {
    items: rows.map((r) => ({
      id: r.id,
      sku: r.sku,
      title: r.title,
      priceMinor: r.price_minor,
      currency: r.currency,
      pageOrder: r.page_order,
      tags: parseJsonArray(r.tags),
      mediaCount: Number(r.media_count ?? 0),
      updatedAt: r.updated_at,
      colours: parseJsonArray(r.colors),
      /** Tracked sizes: on hand, and held by open checkouts. */
      stock: [...(stock.get(r.id)?.entries() ?? [])].flatMap(([pool, sizes]) =>
        [...sizes].map(([size, c]) => ({
          colour: pool === ALL_COLOURS ? null : colourName(parseJsonArray(r.colors), pool),
          size,
          onHand: c.onHand,
          reserved: c.reserved,
        })),
      ),
    })),
    total,
    nextCursor: next < total ? next : null,
  };
}

type FullRow = Omit<ProductsTable, 'page_order' | 'colour_options'> & {
  page_order: number;
  colour_options: string;
};

/**
 * A product's editable fields as read from its row: JSON columns parsed, absent texts empty. The keys are
 * in the catalogue file's order, so an export reads the same from one version to the next.
 */
export type ProductRecord = {
  id: string;
  title: string;
  description: string;
  manufacturer: string;
  manufacturerUrl: string;
  sku: string;
  /** Decimal text in the currency's own decimals (89.00, 1500, 12.345). */
  price: string;
  currency: string;
  pageOrder: number;
  sizes: string[];
  sizeDetail: Record<string, Record<string, string>>;
  /** The colour variants (a colour's price as decimal text, '' for the product's). */
  colors: ColourRecord[];
  tags: string[];
  imageFolder: string;
  images: string[];
  stripePaymentLink: string;
  productLink: string;
  /** Units on hand per tracked size for all colours (absent: not tracked), read beside the row (stockMapOf). */
  stock?: Record<string, number>;
  /** Units on hand per colour (by name) and size, for colours with counts of their own. */
  colourStock?: Record<string, Record<string, number>>;
};

/** A colour as the form and the catalogue file hold it. */
export type ColourRecord = Omit<ColourOption, 'priceMinor'> & { price: string };

function colourRecord(c: ColourOption, currency: string): ColourRecord {
  const { priceMinor, ...rest } = c;
  return { ...rest, price: priceMinor === null ? '' : minorToMajorString(priceMinor, currency) };
}

/** The one reading of a products row: the admin form and the catalogue file both start from it. */
export function productFromRow(r: FullRow): ProductRecord {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    manufacturer: r.manufacturer,
    manufacturerUrl: r.manufacturer_url ?? '',
    sku: r.sku,
    price: minorToMajorString(r.price_minor, r.currency),
    currency: r.currency,
    pageOrder: r.page_order,
    sizes: parseJsonArray(r.sizes),
    sizeDetail: parseJsonRecord(
      r.size_detail,
      (v): v is Record<string, string> => !!v && typeof v === 'object' && !Array.isArray(v),
    ),
    colors: colourOptionsOf(r.colour_options).map((c) => colourRecord(c, r.currency)),
    tags: parseJsonArray(r.tags),
    imageFolder: r.image_folder ?? '',
    images: parseJsonArray(r.images),
    stripePaymentLink: r.stripe_payment_link ?? '',
    productLink: r.product_link ?? '',
  };
}

function toAdminProduct(r: FullRow): AdminProduct {
  const { images: _images, ...record } = productFromRow(r);
  return { ...record, priceMinor: r.price_minor, createdAt: r.created_at, updatedAt: r.updated_at };
}

export async function findAdminProduct(db: DbOrTx, id: string): Promise<AdminProduct | null> {
  const row = await db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  const product = toAdminProduct(row);
  return {
    ...product,
    ...(await stockMapOf(
      db,
      id,
      product.colors.map((c) => c.name),
    )),
  };
}

/** The products row columns a validated form (or imported item) sets. */
export function productColumns(f: ProductFields) {
  return {
    title: f.title,
    slug: slugify(f.title),
    description: f.description,
    manufacturer: f.manufacturer,
    manufacturer_url: f.manufacturerUrl,
    sku: f.sku,
    price_minor: f.priceMinor,
    currency: f.currency,
    sizes: JSON.stringify(f.sizes),
    size_detail: JSON.stringify(f.sizeDetail),
    colors: JSON.stringify(f.colors.map((c) => c.name)),
    colour_options: JSON.stringify(f.colors),
    tags: JSON.stringify(f.tags),
    image_folder: f.imageFolder || null,
    stripe_payment_link: f.stripePaymentLink,
    product_link: f.productLink,
    page_order: f.pageOrder,
  };
}

export async function insertProduct(db: DbOrTx, id: string, f: ProductFields, now: Date): Promise<void> {
  const iso = now.toISOString();
  await db
    .insertInto('products')
    .values({ id, ...productColumns(f), images: '[]', created_at: iso, updated_at: iso })
    .execute();
  await setStock(db, id, f.stock, f.colourStock);
}

/** Updates only if nobody changed the product since `expectedUpdatedAt`; false when someone did (or it is gone). */
export async function updateProduct(
  db: DbOrTx,
  id: string,
  expectedUpdatedAt: string,
  f: ProductFields,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('products')
    .set({ ...productColumns(f), updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('updated_at', '=', expectedUpdatedAt)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await setStock(db, id, f.stock, f.colourStock);
  return true;
}

export async function deleteProductRow(db: DbOrTx, id: string): Promise<boolean> {
  const result = await db.deleteFrom('products').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
