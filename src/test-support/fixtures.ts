import type { Db, ProductsTable } from '../db/database.js';
import { slugify } from '../shared/slug.js';

type ProductRow = Omit<ProductsTable, 'page_order' | 'colour_options'> & {
  page_order: number;
  colour_options?: string;
};
type ProductInput = Partial<ProductRow> & { id: string };

export function productRow(overrides: ProductInput): ProductRow {
  const title = overrides.title ?? `Product ${overrides.id}`;
  return {
    title,
    slug: slugify(title),
    description: 'A well-cut garment.',
    manufacturer: 'Test House',
    manufacturer_url: null,
    sku: `SKU-${overrides.id.slice(0, 8)}`,
    price_minor: 5000,
    currency: 'usd',
    sizes: '["S","M","L","XL"]',
    size_detail: '{}',
    colors: '[]',
    tags: '[]',
    image_folder: null,
    images: '[]',
    stripe_payment_link: null,
    product_link: null,
    page_order: 999,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    // The colour list's names as plain variants, as migration 0027 made them, unless a test gives its own
    // (left out without colours, so tests of older schemas can insert rows too).
    ...(overrides.colors && overrides.colors !== '[]'
      ? {
          colour_options: JSON.stringify(
            (JSON.parse(overrides.colors) as string[]).map((name) => ({
              name,
              hex: null,
              skuSuffix: null,
              priceMinor: null,
              images: [],
              sizeDetail: null,
            })),
          ),
        }
      : {}),
    ...overrides,
  };
}

export async function insertProducts(db: Db, rows: ProductInput[]): Promise<void> {
  if (rows.length === 0) return;
  const products = rows.map(productRow);
  // One INSERT for the batch: once a row names colour_options, a row without it would be given NULL.
  if (products.some((p) => p.colour_options !== undefined)) {
    for (const p of products) p.colour_options ??= '[]';
  }
  await db.insertInto('products').values(products).execute();
}

/** What a shopper types on the demo payment page (/testpayment) for the after-sale flow. */
export const demoShopper = {
  email: 'ayesha@example.com',
  name: 'Ayesha Khan',
  address: { line1: '12 Canal Road', city: 'Lahore', postalCode: '54000', country: 'PK' },
};
