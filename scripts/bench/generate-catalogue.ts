import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { demoDir } from '../../src/app-root.js';
import type { Database } from '../../src/db/database.js';
import { slugify } from '../../src/shared/slug.js';

/** A deterministic PRNG so every run measures the same catalogue (the soak's shoppers use it too). */
export function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

/** Writes `count` realistic products (with 1 to 3 media rows each) in one transaction. */
export async function generateCatalogue(db: Kysely<Database>, count: number, seed = 42): Promise<string[]> {
  const rand = mulberry32(seed);
  const ids: string[] = [];
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += 500) {
      const products = [];
      const media = [];
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
        products.push({
          id,
          title,
          slug: slugify(title),
          description: `A ${fabric.toLowerCase()} ${garment.toLowerCase()} in ${colour.toLowerCase()} with ${motif.toLowerCase()} detailing by ${maker}. Cut for an easy fit, finished by hand, and ready to wear for ${pick(rand, TAGS)} occasions.`,
          manufacturer: maker,
          manufacturer_url: `https://${slugify(maker)}.example.com`,
          sku: `BN-${String(i).padStart(6, '0')}`,
          price_minor: 2500 + Math.floor(rand() * 500) * 100 + (rand() < 0.2 ? 99 : 0),
          currency: 'usd',
          sizes: JSON.stringify(sizes),
          size_detail: '{}',
          colors: JSON.stringify(pickSome(rand, COLOURS, 1, 3)),
          tags: JSON.stringify(pickSome(rand, TAGS, 2, 4)),
          image_folder: null,
          images: '[]',
          stripe_payment_link: null,
          product_link: null,
          page_order: rand() < 0.05 ? Math.floor(rand() * 50) : 999,
          created_at: created,
          updated_at: created,
        });
        const images = 1 + Math.floor(rand() * 3);
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
      }
      await trx.insertInto('products').values(products).execute();
      await trx.insertInto('media').values(media).execute();
    }
  });
  return ids;
}
