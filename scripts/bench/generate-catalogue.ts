import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { demoDir } from '../../src/app-root.js';
import { mulberry32 } from '../../src/core/seeded-random.js';
import type { Database } from '../../src/db/database.js';
import { colourKey } from '../../src/shared/colours.js';
import { slugify } from '../../src/shared/slug.js';

// A deterministic PRNG so every run measures the same catalogue (the soak's shoppers use it too).
export { mulberry32 };

const COLOURS = [
  'Mint',
  'Ivory',
  'Maroon',
  'Navy',
  'Mustard',
  'Black',
  'Blush Pink',
  'Emerald',
  'Teal',
  'Beige',
  'Crimson',
  'Lilac',
  'Peach',
  'Sage',
  'Rust',
  'Gold',
];
/** Each colour's swatch, as an owner picks it in the product form. */
const HEX: Record<string, string> = {
  Mint: '#98d7c2',
  Ivory: '#f4efe1',
  Maroon: '#6d1f2a',
  Navy: '#1f2a4d',
  Mustard: '#d4a22b',
  Black: '#1b1b1b',
  'Blush Pink': '#e8b4b8',
  Emerald: '#1f7a4d',
  Teal: '#1f7a6d',
  Beige: '#d8c8a8',
  Crimson: '#a51c30',
  Lilac: '#b9a2d0',
  Peach: '#f2b48f',
  Sage: '#9cae8c',
  Rust: '#a7512a',
  Gold: '#c9a23a',
};
const FABRICS = [
  'Lawn',
  'Chiffon',
  'Silk',
  'Cotton',
  'Khaddar',
  'Organza',
  'Velvet',
  'Jacquard',
  'Linen',
  'Cambric',
  'Karandi',
  'Raw Silk',
];
const GARMENTS = [
  'Kurta',
  'Three-Piece Suit',
  'Lehenga',
  'Shalwar Kameez',
  'Sherwani',
  'Waistcoat',
  'Anarkali',
  'Maxi',
  'Dupatta',
  'Shawl',
  'Kaftan',
  'Angrakha',
];
const MOTIFS = [
  'Jaal',
  'Paisley',
  'Chikankari',
  'Gota',
  'Zari',
  'Block Print',
  'Mirror Work',
  'Phulkari',
  'Ajrak',
  'Floral',
  'Geometric',
  'Resham',
];
const MAKERS = [
  'Zarnigar Atelier',
  'Noor Mahal',
  'Sehar Looms',
  'Kohinoor Couture',
  'Rang Rasiya',
  'Mehr Studio',
  'Daman Designs',
  'Sitara House',
  'Anaar Kali',
  'Qasr Textiles',
  'Banno Bazaar',
  'Pari Threads',
  'Lahore Loom Co.',
  'Karachi Cut',
  'Multan Mills',
  'Hunza Handloom',
  'Swat Weaves',
  'Indus Atelier',
  'Chenab Couture',
  'Ravi Rang',
];
const TAGS = [
  'lawn',
  'formal',
  'casual',
  'eid',
  'wedding',
  'embroidered',
  'printed',
  'chiffon',
  'silk',
  'winter',
  'summer',
  'men',
  'women',
  'kids',
  'festive',
  'office',
  'party',
  'bridal',
];
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];

/** The words, sizes, colours and makers the generated catalogue is made of: what its shoppers ask for. */
export const CATALOGUE_VOCABULARY = {
  colours: COLOURS,
  fabrics: FABRICS,
  garments: GARMENTS,
  motifs: MOTIFS,
  makers: MAKERS,
  tags: TAGS,
  sizes: SIZES,
} as const;
/** The demo catalogue's drawn garments (data/demo/images), served from the bench store's media folder. */
const DEMO_IMAGES = path.join(demoDir, 'images');
const IMAGES = readdirSync(DEMO_IMAGES)
  .filter((f) => f.endsWith('.svg') && f !== 'banner.svg')
  .sort()
  .map((f) => `/media/demo/${f}`);

/** Copies those images where the generated media rows point, so pages show real pictures. */
export function copyDemoImages(dataDir: string): void {
  const target = path.join(dataDir, 'media', 'demo');
  mkdirSync(target, { recursive: true });
  for (const f of readdirSync(DEMO_IMAGES)) copyFileSync(path.join(DEMO_IMAGES, f), path.join(target, f));
}

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}
function pickSome<T>(rand: () => number, list: readonly T[], min: number, max: number): T[] {
  const n = min + Math.floor(rand() * (max - min + 1));
  const copy = [...list];
  const out: T[] = [];
  while (out.length < n && copy.length) out.push(copy.splice(Math.floor(rand() * copy.length), 1)[0] as T);
  return out;
}

type StockRow = { product_id: string; colour: string; size: string; on_hand: number; reserved: number };

/**
 * A product's colour variants and stock, drawn from their own sequence (`rand`), so the products' words,
 * prices and sizes are those the catalogue had before it had variants. Every colour has its swatch; about one
 * product in five with two or more colours has a photo of its own per colour; about one in ten has stock
 * counted (per colour, or for all colours), with sizes sold out among them, some colours entirely: what a
 * colour filter must leave out and a colour-scoped card must mark.
 */
function colourVariants(
  rand: () => number,
  id: string,
  title: string,
  names: string[],
  sizes: string[],
  firstOrder: number,
  created: string,
) {
  const media: Array<{
    id: string;
    product_id: string;
    url: string;
    file_name: string;
    media_type: 'image';
    display_order: number;
    alt_text: string;
    created_at: string;
    updated_at: string;
  }> = [];
  const ownPhotos = names.length > 1 && rand() < 0.2;
  const options = names.map((name, k) => {
    const images: string[] = [];
    if (ownPhotos) {
      const url = IMAGES[(Math.floor(rand() * IMAGES.length) + k) % IMAGES.length] as string;
      images.push(url);
      media.push({
        id: `${id}-c${k}`,
        product_id: id,
        url,
        file_name: `colour-${k}.svg`,
        media_type: 'image',
        display_order: firstOrder + k,
        alt_text: `${title}, ${name}`,
        created_at: created,
        updated_at: created,
      });
    }
    return { name, hex: HEX[name] ?? null, skuSuffix: null, priceMinor: null, images, sizeDetail: null };
  });
  const stock: StockRow[] = [];
  if (sizes.length > 0 && rand() < 0.1) {
    // A count: none left (about one in five), or some.
    const count = (gone: boolean) => (gone || rand() < 0.2 ? 0 : 1 + Math.floor(rand() * 20));
    if (names.length > 1 && rand() < 0.5) {
      for (const name of names) {
        // One colour in five sold out in every size.
        const gone = rand() < 0.2;
        for (const size of sizes) {
          stock.push({ product_id: id, colour: colourKey(name), size, on_hand: count(gone), reserved: 0 });
        }
      }
    } else {
      for (const size of sizes)
        stock.push({ product_id: id, colour: '', size, on_hand: count(false), reserved: 0 });
    }
  }
  return { options, media, stock };
}

/**
 * Writes `count` realistic products (with 1 to 3 media rows each, and colour variants: colourVariants) in
 * one transaction, through the columns the products form writes (colors = the colours' names, colour_options).
 */
/**
 * Sales running through the whole bench (decision 0037), so its listings price cards at sale prices, its
 * On sale filter finds something and its price sorts and bounds go by the price charged: a percentage off a
 * tag, a fixed amount off another, and a percentage off one colour of every product.
 */
const SALES = [
  { id: 'bench-eid', name: 'Eid', value: { percent: 20 }, scope: { tags: ['eid', 'women'] } },
  { id: 'bench-lawn', name: 'Lawn week', value: { amount: 1500 }, scope: { tags: ['lawn'] } },
  { id: 'bench-teal', name: 'Teal days', value: { percent: 10 }, scope: { colours: ['teal'] } },
] as const;

async function insertSales(db: Kysely<Database>): Promise<void> {
  const at = '2025-01-01T00:00:00.000Z';
  await db
    .insertInto('discounts')
    .values(
      SALES.map((sale) => ({
        id: sale.id,
        kind: 'sale' as const,
        name: sale.name,
        code: null,
        code_key: null,
        value_type: 'percent' in sale.value ? ('percent' as const) : ('fixed' as const),
        percent: 'percent' in sale.value ? sale.value.percent : null,
        amount_minor: 'amount' in sale.value ? sale.value.amount : null,
        currency: 'amount' in sale.value ? 'usd' : null,
        scope: JSON.stringify(sale.scope),
        starts_at: at,
        ends_at: null,
        ended_at: null,
        min_order_minor: null,
        max_uses: null,
        max_uses_per_email: null,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
}

/**
 * `withStock: false` leaves every size untracked (the soak's catalogue, whose checksum must not move as its
 * shoppers buy, and whose checkouts must never meet a sold-out size); it has no sales either, so what its
 * shoppers pay is the price they read.
 */
export async function generateCatalogue(
  db: Kysely<Database>,
  count: number,
  seed = 42,
  { withStock = true, withSales = withStock }: { withStock?: boolean; withSales?: boolean } = {},
): Promise<string[]> {
  const rand = mulberry32(seed);
  const colourRand = mulberry32(seed ^ 0x5eed);
  const ids: string[] = [];
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += 500) {
      const products = [];
      const media = [];
      const stock: StockRow[] = [];
      for (let i = start; i < Math.min(count, start + 500); i++) {
        const id = `plink_bench${String(i).padStart(8, '0')}`;
        ids.push(id);
        const colour = pick(rand, COLOURS);
        const fabric = pick(rand, FABRICS);
        const garment = pick(rand, GARMENTS);
        const motif = pick(rand, MOTIFS);
        const maker = pick(rand, MAKERS);
        const title = `${motif} ${fabric} ${garment} — ${colour} ${i}`;
        const sizes = SIZES.filter(() => rand() < 0.7);
        const created = new Date(Date.UTC(2025, 0, 1) + Math.floor(rand() * 600 * 86400_000)).toISOString();
        const description = `A ${fabric.toLowerCase()} ${garment.toLowerCase()} in ${colour.toLowerCase()} with ${motif.toLowerCase()} detailing by ${maker}. Cut for an easy fit, finished by hand, and ready to wear for ${pick(rand, TAGS)} occasions.`;
        const manufacturerUrl = `https://${slugify(maker)}.example.com`;
        const price = 2500 + Math.floor(rand() * 500) * 100 + (rand() < 0.2 ? 99 : 0);
        const names = pickSome(rand, COLOURS, 1, 3);
        const tags = pickSome(rand, TAGS, 2, 4);
        const pageOrder = rand() < 0.05 ? Math.floor(rand() * 50) : 999;
        const images = 1 + Math.floor(rand() * 3);
        const variants = colourVariants(colourRand, id, title, names, sizes, images, created);
        products.push({
          id,
          title,
          slug: slugify(title),
          description,
          manufacturer: maker,
          manufacturer_url: manufacturerUrl,
          sku: `BN-${String(i).padStart(6, '0')}`,
          price_minor: price,
          currency: 'usd',
          sizes: JSON.stringify(sizes),
          size_detail: '{}',
          colors: JSON.stringify(names),
          colour_options: JSON.stringify(variants.options),
          tags: JSON.stringify(tags),
          image_folder: null,
          images: '[]',
          stripe_payment_link: null,
          product_link: null,
          page_order: pageOrder,
          created_at: created,
          updated_at: created,
        });
        for (let m = 0; m < images; m++) {
          media.push({
            id: `${id}-m${m}`,
            product_id: id,
            url: pick(rand, IMAGES),
            file_name: `image-${m}.svg`,
            media_type: 'image' as const,
            display_order: m,
            alt_text: `${title}, view ${m + 1}`,
            created_at: created,
            updated_at: created,
          });
        }
        media.push(...variants.media);
        if (withStock) stock.push(...variants.stock);
      }
      await trx.insertInto('products').values(products).execute();
      await trx.insertInto('media').values(media).execute();
      if (stock.length > 0) await trx.insertInto('size_stock').values(stock).execute();
    }
    if (withSales) await insertSales(trx);
  });
  return ids;
}
