import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { oneAtATime } from '../../db/engine-sql.js';
import type { ColourOption } from '../../shared/colours.js';
import { parseMajorToMinor } from '../../shared/money.js';
import type { FileStorage } from '../../storage/file-storage.js';
import { productColumns } from '../products/products.repository.js';
import { updateSettings } from '../settings/settings.repository.js';
import { setStock } from '../stock/stock.repository.js';
import { type DemoCatalogue, demoCatalogueSchema } from './demo-catalogue.schema.js';

const DEMO_MARKER = 'demo_catalogue_loaded_at';

type DemoColour = DemoCatalogue['products'][number]['colors'][number];

/** A demo colour as the product keeps it: a plain name shares the photos; a variant names its own files. */
function colourOf(
  productId: string,
  currency: string,
  c: DemoColour,
  mediaUrl: (file: string) => string,
): ColourOption {
  if (typeof c === 'string')
    return { name: c, hex: null, skuSuffix: null, priceMinor: null, images: [], sizeDetail: null };
  const priceMinor = c.price === undefined ? null : parseMajorToMinor(c.price, currency);
  if (c.price !== undefined && priceMinor === null)
    throw new Error(`Demo product ${productId} has an invalid price ${c.price} for ${c.name}`);
  return {
    name: c.name,
    hex: c.hex,
    skuSuffix: c.skuSuffix ?? null,
    priceMinor,
    images: c.images.map(mediaUrl),
    sizeDetail: null,
  };
}

export type DemoLoadResult = { loaded: boolean; products: number };

/**
 * Loads data/demo into a store that has never had a catalogue: only when no product exists and the demo
 * was never loaded before (an operator who deletes every product does not get the demo back). The rows go
 * in one transaction; the image files are copied first, so a crash leaves at most unused files.
 */
export async function loadDemoCatalogueIfEmpty(deps: {
  db: Db;
  storage: FileStorage;
  demoDir: string;
  clock: Clock;
}): Promise<DemoLoadResult> {
  const { db, storage, demoDir, clock } = deps;
  const marker = await db
    .selectFrom('app_meta')
    .select('value')
    .where('key', '=', DEMO_MARKER)
    .executeTakeFirst();
  const anyProduct = await db.selectFrom('products').select('id').limit(1).executeTakeFirst();
  if (marker || anyProduct) return { loaded: false, products: 0 };

  const raw: unknown = JSON.parse(await readFile(path.join(demoDir, 'catalogue.json'), 'utf8'));
  const demo = demoCatalogueSchema.parse(raw);
  const mediaUrl = (file: string) => `/media/demo/${path.posix.basename(file)}`;

  const files = new Set<string>(demo.products.flatMap((p) => p.media.map((m) => m.file)));
  if (demo.settings.bannerImage) files.add(demo.settings.bannerImage);
  for (const file of files) {
    await storage.put(`media/demo/${path.posix.basename(file)}`, await readFile(path.join(demoDir, file)));
  }

  const now = clock.now().toISOString();
  const loaded = await db.transaction().execute(async (trx) => {
    // Re-checked inside the transaction, after taking turns (PostgreSQL's read committed would let two
    // processes starting together both see no marker): the demo is loaded once.
    await oneAtATime(trx, 'demo-catalogue');
    const again = await trx
      .selectFrom('app_meta')
      .select('value')
      .where('key', '=', DEMO_MARKER)
      .executeTakeFirst();
    if (again) return false;
    const s = demo.settings;
    await updateSettings(
      trx,
      {
        storeName: s.storeName,
        tagline: s.tagline,
        aboutText: s.aboutText,
        disclaimer: s.disclaimer,
        credits: s.credits,
        specialOrderUrl: s.specialOrderUrl,
        contactUrl: s.contactUrl,
        bannerTitle: s.bannerTitle,
        bannerDescription: s.bannerDescription,
        bannerImageUrl: s.bannerImage ? mediaUrl(s.bannerImage) : null,
        bannerActive: s.bannerActive,
      },
      clock.now(),
    );

    for (const p of demo.products) {
      const priceMinor = parseMajorToMinor(p.price, p.currency);
      if (priceMinor === null) throw new Error(`Demo product ${p.id} has an invalid price ${p.price}`);
      await trx
        .insertInto('products')
        .values({
          id: p.id,
          ...productColumns({
            title: p.title,
            description: p.description,
            manufacturer: p.manufacturer,
            manufacturerUrl: p.manufacturerUrl,
            sku: p.sku,
            price: p.price,
            priceMinor,
            currency: p.currency,
            pageOrder: p.pageOrder,
            sizes: p.sizes,
            sizeDetail: p.sizeDetail,
            colors: p.colors.map((c) => colourOf(p.id, p.currency, c, mediaUrl)),
            colourStock: p.colourStock ?? {},
            tags: p.tags,
            imageFolder: `/media/images/product-catalog/${p.id}`,
            stripePaymentLink: null,
            productLink: p.productLink ?? null,
            stock: p.stock ?? {},
          }),
          images: '[]',
          created_at: p.createdAt,
          updated_at: p.createdAt,
        })
        .execute();
      await setStock(trx, p.id, p.stock ?? {}, p.colourStock ?? {});
      if (p.media.length > 0) {
        await trx
          .insertInto('media')
          .values(
            p.media.map((m, i) => ({
              id: `${p.id}-m${i}`,
              product_id: p.id,
              url: mediaUrl(m.file),
              file_name: path.posix.basename(m.file),
              media_type: 'image' as const,
              display_order: i,
              alt_text: m.altText,
              created_at: p.createdAt,
              updated_at: p.createdAt,
            })),
          )
          .execute();
      }
    }

    const quotesExist = await trx.selectFrom('funny_quotes').select('id').limit(1).executeTakeFirst();
    if (!quotesExist && demo.quotes.length > 0) {
      await trx
        .insertInto('funny_quotes')
        .values(demo.quotes.map((q) => ({ quote: q.quote, author: q.author, created_at: now })))
        .execute();
    }
    const versionExists = await trx.selectFrom('version_info').select('id').limit(1).executeTakeFirst();
    if (!versionExists) {
      await trx
        .insertInto('version_info')
        .values({
          version: demo.version.version,
          environment: demo.version.environment,
          notes: demo.version.notes,
          updated_at: now,
        })
        .execute();
    }
    await trx.insertInto('app_meta').values({ key: DEMO_MARKER, value: now }).execute();
    return true;
  });
  return loaded ? { loaded: true, products: demo.products.length } : { loaded: false, products: 0 };
}
