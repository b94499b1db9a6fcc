/** Data the soak feeds the store: a generated catalogue, a large import file, a large photo. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { databaseFile, openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { importCatalog } from '../../src/modules/catalog-versions/catalog-versions.service.js';
import { LocalFileStorage } from '../../src/storage/local-file-storage.js';
import { generateCatalogue } from '../bench/generate-catalogue.js';
import { type CatalogueState, catalogueState } from './store-checks.js';

/** A migrated data folder holding `products` generated products (the bench's generator). */
export async function seedFolder(dataDir: string, products: number): Promise<void> {
  const handle = openDatabase(databaseFile(dataDir));
  try {
    await migrateToLatest(handle.db);
    await generateCatalogue(handle.db, products, 42, { withStock: false });
  } finally {
    await handle.close();
  }
}

/**
 * A storefront-format YAML catalogue of `count` products, every one valid, with URL media only. Each has its
 * own SKU: the default one, made from the id's first characters, would repeat across the file, and SKUs are
 * unique.
 */
export function importYaml(count: number, prefix: string): string {
  const lines = Array.from(
    { length: count },
    (_, i) =>
      `  - { id: ${prefix}_${i}, title: 'Soak ${prefix} ${i}', sku: 'SOAK-${prefix}-${i}', description: 'Generated for the soak test', price: '${10 + (i % 90)}.00', currency: usd, sizes: [S, M, L], tags: [soak, ${i % 2 ? 'women' : 'men'}], media: [{ url: 'https://img.example.com/${prefix}/${i}.jpg', fileName: '${i}.jpg' }] }`,
  );
  return `metadata: { format: storefront-catalog/1 }\nproducts:\n${lines.join('\n')}\n`;
}

/**
 * The catalogue a successful import of `yaml` produces, measured by importing it into a scratch store:
 * the "fully new" state a kill -9 may leave instead of the old one.
 */
export async function stateAfterImport(yaml: string): Promise<CatalogueState> {
  const dir = mkdtempSync(path.join(tmpdir(), 'store-soak-reference-'));
  const handle = openDatabase(databaseFile(dir));
  try {
    await migrateToLatest(handle.db);
    await importCatalog(
      { db: handle.db, storage: new LocalFileStorage(dir), clock: { now: () => new Date() } },
      yaml,
      'overwrite',
    );
    return await catalogueState(handle.db);
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A noisy JPEG photo (noise does not compress, so it is big and slow to resize, like a real one). */
export async function photo(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
}
