import { randomBytes, randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Selectable } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { CatalogVersionsTable, Database, Db, DbOrTx } from '../../db/database.js';
import { undoneAloneOnError } from '../../db/engine-sql.js';
import { parseJsonArray } from '../../db/json-columns.js';
import { ALL_COLOURS, colourKey } from '../../shared/colours.js';
import { skuTakenMessage } from '../../shared/product-input.js';
import { parseVariants } from '../../shared/responsive-image.js';
import { DEFAULT_SIZES } from '../../shared/sizes.js';
import type { FileStorage } from '../../storage/file-storage.js';
import { CATALOG_PREFIX } from '../../storage/storage-keys.js';
import { productColumns, productFromRow } from '../products/products.repository.js';
import { findSkuOwner, isSkuConflict, skuOwners } from '../products/sku.js';
import { latestVersion } from '../settings/settings.repository.js';
import { dumpCatalogOffThread } from './catalog-dump.js';
import {
  CATALOG_FORMAT,
  CatalogFileError,
  type CatalogMedia,
  type CatalogProduct,
  catalogColour,
  type ImportIssue,
  type ImportItem,
  MAX_CATALOG_BYTES,
  mergeIssues,
  type ParsedCatalog,
  refuseHeldSkus,
} from './catalog-file.js';
import { readCatalogFileOffThread } from './catalog-parse.js';

export type CatalogDeps = { db: Db; storage: FileStorage; clock: Clock };

export type CatalogVersion = {
  id: string;
  label: string;
  fileName: string;
  tags: string[];
  isActive: boolean;
  kind: 'export' | 'backup';
  productCount: number;
  byteSize: number;
  checksum: string;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
};

export class CatalogError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'BAD_REQUEST' | 'CONFLICT',
    message: string,
  ) {
    super(message);
    this.name = 'CatalogError';
  }
}

function toVersion(r: Selectable<CatalogVersionsTable>): CatalogVersion {
  return {
    id: r.id,
    label: r.label,
    fileName: r.file_name,
    tags: parseJsonArray(r.tags),
    isActive: r.is_active === 1,
    kind: r.kind,
    productCount: r.product_count,
    byteSize: r.byte_size,
    checksum: r.checksum,
    createdBy: r.created_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Products per read (and per delete) of a whole-catalogue pass: the driver lets the event loop turn between statements. */
export const CATALOGUE_CHUNK_ROWS = 1_000;

type ProductRow = Selectable<Database['products']>;
type MediaRow = Selectable<Database['media']>;

function fileMedia(m: MediaRow): CatalogMedia {
  return {
    url: m.url,
    fileName: m.file_name,
    type: m.media_type,
    altText: m.alt_text,
    order: m.display_order,
    ...(m.storage_key
      ? {
          upload: {
            storageKey: m.storage_key,
            contentType: m.content_type,
            byteSize: m.byte_size,
            width: m.width,
            height: m.height,
            variants: parseVariants(m.variants),
          },
        }
      : {}),
  };
}

/** A product's counts keyed in its sizes' order, so the file reads like the size picker. */
function inSizeOrder(
  sizes: string[],
  rows: Array<{ size: string; on_hand: number }>,
): Record<string, number> {
  const rank = (size: string) => (sizes.includes(size) ? sizes.indexOf(size) : sizes.length);
  return Object.fromEntries(
    [...rows].sort((a, b) => rank(a.size) - rank(b.size)).map((r) => [r.size, r.on_hand]),
  );
}

/**
 * A product as the file carries it; productFromRow's keys are in the file's order. A colour's photo that is
 * none of the product's own any more (a URL its media and image list no longer have) shows nothing on the
 * product page and would make the file refuse the product on import: it is left out, so a backup always
 * restores.
 */
function fileProduct(r: ProductRow, media: CatalogMedia[]): CatalogProduct {
  const record = productFromRow(r);
  const photos = new Set([...media.map((m) => m.url), ...record.images]);
  const colors = record.colors.map((c) =>
    catalogColour({ ...c, images: c.images.filter((url) => photos.has(url)) }),
  );
  return { ...record, colors, media };
}

/**
 * A product's stock as the file carries it (CatalogProduct): `stock` (the all-colours count) and
 * `colourStock` (per colour, by the colour's name, in the colours' order), each only when it has a count. A
 * count kept for a colour the product no longer has counts for nothing (decision 0036) and is left out.
 */
function fileStock(
  product: CatalogProduct,
  rows: ReadonlyArray<{ colour: string; size: string; on_hand: number }>,
): Pick<CatalogProduct, 'stock' | 'colourStock'> {
  const shared = rows.filter((r) => r.colour === ALL_COLOURS);
  const colourStock: Record<string, Record<string, number>> = {};
  for (const c of product.colors) {
    const name = typeof c === 'string' ? c : c.name;
    const own = rows.filter((r) => r.colour !== ALL_COLOURS && r.colour === colourKey(name));
    if (own.length > 0) colourStock[name] = inSizeOrder(product.sizes, own);
  }
  return {
    ...(shared.length > 0 ? { stock: inSizeOrder(product.sizes, shared) } : {}),
    ...(Object.keys(colourStock).length > 0 ? { colourStock } : {}),
  };
}

/**
 * Every product with its media, as the file carries them (page order, then id). Read in chunks of
 * CATALOGUE_CHUNK_ROWS products (keyset on page order and id) with their media, so a big catalogue is many
 * short statements rather than two that block the event loop for seconds; inside a transaction it is one
 * consistent picture.
 */
export async function catalogProducts(db: DbOrTx): Promise<CatalogProduct[]> {
  const out: CatalogProduct[] = [];
  let after: { pageOrder: number; id: string } | null = null;
  for (;;) {
    const from = after;
    const rows: ProductRow[] = await db
      .selectFrom('products')
      .selectAll()
      .$if(from !== null, (q) =>
        q.where((eb) =>
          eb.or([
            eb('page_order', '>', from?.pageOrder ?? 0),
            eb.and([eb('page_order', '=', from?.pageOrder ?? 0), eb('id', '>', from?.id ?? '')]),
          ]),
        ),
      )
      .orderBy('page_order')
      .orderBy('id')
      .limit(CATALOGUE_CHUNK_ROWS)
      .execute();
    if (rows.length === 0) break;
    const mediaRows = await db
      .selectFrom('media')
      .selectAll()
      .where(
        'product_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('product_id')
      .orderBy('display_order')
      .orderBy('id')
      .execute();
    const mediaByProduct = new Map<string, CatalogMedia[]>();
    for (const m of mediaRows) {
      const list = mediaByProduct.get(m.product_id) ?? [];
      list.push(fileMedia(m));
      mediaByProduct.set(m.product_id, list);
    }
    const stock = await db
      .selectFrom('size_stock')
      .select(['product_id', 'colour', 'size', 'on_hand'])
      .where(
        'product_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    for (const r of rows) {
      const mine = stock.filter((s) => s.product_id === r.id);
      const product = fileProduct(r, mediaByProduct.get(r.id) ?? []);
      // Only products that track stock carry the keys: an older reader sees the file it knows.
      out.push({ ...product, ...fileStock(product, mine) });
    }
    if (rows.length < CATALOGUE_CHUNK_ROWS) break;
    const last = rows[rows.length - 1] as ProductRow;
    after = { pageOrder: last.page_order, id: last.id };
    // Outside a transaction the reads are answered without a macrotask turn: give the loop one.
    await nextTurn();
  }
  return out;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** "2026-11-22 10:00" in UTC: the default label's date and time. */
function labelTime(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

async function freeFileName(storage: FileStorage, now: Date): Promise<string> {
  const base = `catalog-export-${now.toISOString().slice(0, 10)}-${now.getTime()}`;
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? `${base}.yaml` : `${base}-${n}.yaml`;
    if (!(await storage.exists(`${CATALOG_PREFIX}${name}`))) return name;
  }
}

/** Writes the live catalogue to a new YAML file and records it as an inactive version. */
export async function exportCatalog(
  deps: CatalogDeps,
  opts: {
    label?: string | undefined;
    tags?: string[] | undefined;
    kind?: 'export' | 'backup';
    adminEmail?: string;
  },
): Promise<CatalogVersion> {
  const now = deps.clock.now();
  // One read transaction, so the file is one consistent picture even while the admin edits.
  const products = await deps.db.transaction().execute((trx) => catalogProducts(trx));
  const version = (await latestVersion(deps.db))?.version ?? '1.0.0';
  const label = opts.label?.trim() || `Catalog Export ${labelTime(now)}`;
  const tags = opts.tags ?? [];
  // The checksum and YAML of a big catalogue are made in a worker thread (seconds of CPU at 50,000 products).
  const { checksum, content } = await dumpCatalogOffThread(
    {
      format: CATALOG_FORMAT,
      exported_at: now.toISOString(),
      total_products: products.length,
      store_version: version,
      label,
      tags,
    },
    products,
  );
  const fileName = await freeFileName(deps.storage, now);
  const key = `${CATALOG_PREFIX}${fileName}`;
  await deps.storage.put(key, content);
  const row = {
    id: `cv_${randomBytes(9).toString('base64url')}`,
    label,
    file_name: fileName,
    storage_key: key,
    tags: JSON.stringify(tags),
    is_active: 0,
    kind: opts.kind ?? 'export',
    product_count: products.length,
    byte_size: content.byteLength,
    checksum,
    created_by: opts.adminEmail ?? null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  } as const;
  try {
    await deps.db.insertInto('catalog_versions').values(row).execute();
  } catch (err) {
    await deps.storage.remove(key).catch(() => undefined);
    throw err;
  }
  return toVersion(row);
}

export async function listVersions(db: DbOrTx): Promise<CatalogVersion[]> {
  const rows = await db
    .selectFrom('catalog_versions')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toVersion);
}

export async function findVersion(db: DbOrTx, id: string): Promise<CatalogVersion & { storageKey: string }> {
  const row = await db.selectFrom('catalog_versions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new CatalogError('NOT_FOUND', 'Catalog version not found');
  return { ...toVersion(row), storageKey: row.storage_key };
}

/** The version's YAML text; a missing file is a clear error, never an empty view. */
export async function readVersionContent(deps: CatalogDeps, id: string): Promise<string> {
  const version = await findVersion(deps.db, id);
  if (!(await deps.storage.exists(version.storageKey))) {
    throw new CatalogError(
      'NOT_FOUND',
      `The file of this version (${version.fileName}) is missing from storage.`,
    );
  }
  const content = await deps.storage.read(version.storageKey);
  if (content.byteLength > MAX_CATALOG_BYTES) {
    throw new CatalogError('BAD_REQUEST', 'The file of this version is too large to show.');
  }
  return content.toString('utf8');
}

export async function deleteVersion(deps: CatalogDeps, id: string): Promise<void> {
  const version = await findVersion(deps.db, id);
  await deps.db.deleteFrom('catalog_versions').where('id', '=', id).execute();
  await deps.storage.remove(version.storageKey);
}

const INSERT_BATCH = 400;

/** Inserts products and their media; the caller holds the transaction. */
async function insertItems(trx: DbOrTx, items: readonly ImportItem[], now: Date): Promise<void> {
  const iso = now.toISOString();
  for (let i = 0; i < items.length; i += INSERT_BATCH) {
    const batch = items.slice(i, i + INSERT_BATCH);
    await trx
      .insertInto('products')
      .values(
        batch.map((item) => ({
          id: item.id,
          ...productColumns(item.fields),
          images: JSON.stringify(item.images),
          created_at: item.createdAt ?? iso,
          updated_at: item.updatedAt ?? item.createdAt ?? iso,
        })),
      )
      .execute();
    const media = batch.flatMap((item) =>
      item.media.map((m) => ({
        id: randomUUID(),
        product_id: item.id,
        url: m.url,
        file_name: m.fileName,
        media_type: m.type,
        display_order: m.order,
        alt_text: m.altText,
        storage_key: m.upload?.storageKey ?? null,
        content_type: m.upload?.contentType ?? null,
        byte_size: m.upload?.byteSize ?? null,
        width: m.upload?.width ?? null,
        height: m.upload?.height ?? null,
        variants: JSON.stringify(m.upload?.variants ?? []),
        created_at: iso,
        updated_at: iso,
      })),
    );
    for (let j = 0; j < media.length; j += INSERT_BATCH) {
      await trx
        .insertInto('media')
        .values(media.slice(j, j + INSERT_BATCH))
        .execute();
    }
    // As setStock keeps them: the all-colours count under '', a colour's under its key.
    const stock = batch.flatMap((item) => [
      ...Object.entries(item.fields.stock).map(([size, onHand]) => ({
        product_id: item.id,
        colour: ALL_COLOURS,
        size,
        on_hand: onHand,
        reserved: 0,
      })),
      ...Object.entries(item.fields.colourStock).flatMap(([name, counts]) =>
        Object.entries(counts).map(([size, onHand]) => ({
          product_id: item.id,
          colour: colourKey(name),
          size,
          on_hand: onHand,
          reserved: 0,
        })),
      ),
    ]);
    for (let j = 0; j < stock.length; j += INSERT_BATCH) {
      await trx
        .insertInto('size_stock')
        .values(stock.slice(j, j + INSERT_BATCH))
        .execute();
    }
  }
}

/**
 * insertItems, where the unique SKU index refusing a row (a writer outside this transaction took a SKU after
 * the check) becomes `refuse(reason)` naming the SKU and its product, not a 500.
 */
async function insertItemsOrRefuse(
  trx: DbOrTx,
  items: readonly ImportItem[],
  now: Date,
  refuse: (reason: string) => Error,
): Promise<void> {
  try {
    await undoneAloneOnError(trx, () => insertItems(trx, items, now));
  } catch (err) {
    if (!isSkuConflict(err)) throw err;
    // The failed write was undone, not the transaction: the rows that hold the SKUs are readable.
    for (const item of items) {
      const owner = await findSkuOwner(trx, item.fields.sku, item.id);
      if (owner)
        throw refuse(`#${item.position} (${item.id}): ${skuTakenMessage(item.fields.sku, owner.title)}`);
    }
    throw refuse('Two products would share a SKU');
  }
}

/** Products per DELETE: each fires the search, change-log and media-cascade work of its rows. */
export const DELETE_CHUNK_ROWS = 500;

/**
 * Deletes every product (their media by FK cascade, the search and facet rows by trigger) DELETE_CHUNK_ROWS
 * at a time: one DELETE of 50,000 products held the event loop for seconds, and the driver can only let it
 * turn between statements. Inside the caller's transaction, so the catalogue is never seen half empty.
 */
export async function deleteAllProducts(trx: DbOrTx, chunkRows = DELETE_CHUNK_ROWS): Promise<void> {
  for (;;) {
    const result = await trx
      .deleteFrom('products')
      .where('id', 'in', (eb) => eb.selectFrom('products').select('id').limit(chunkRows))
      .executeTakeFirst();
    if (Number(result.numDeletedRows) < chunkRows) return;
  }
}

/**
 * Replaces the whole catalogue with `items` inside the caller's transaction. Media rows go with their
 * products (FK cascade); stored upload files stay, since other versions may still name them. The shoppers
 * still waiting for a size of a product the new catalogue has keep their wish (the cascade would drop
 * it): a publish that brings the size back is when they are emailed.
 */
async function replaceCatalogue(
  trx: DbOrTx,
  items: readonly ImportItem[],
  now: Date,
  refuse: (reason: string) => Error,
): Promise<void> {
  const waiting = await trx
    .selectFrom('stock_alerts')
    .select(['product_id', 'colour', 'size', 'email', 'created_at'])
    .where('notified_at', 'is', null)
    .orderBy('id')
    .execute();
  await deleteAllProducts(trx);
  await insertItemsOrRefuse(trx, items, now, refuse);
  // A product without sizes of its own is sold in the default ones, as the storefront reads it.
  const sizesOf = new Map(
    items.map((item) => [item.id, new Set(item.fields.sizes.length > 0 ? item.fields.sizes : DEFAULT_SIZES)]),
  );
  // A wish for a colour waits while the product still has that colour; one for no colour ('') as before.
  const coloursOf = new Map(
    items.map((item) => [item.id, new Set(item.fields.colors.map((c) => colourKey(c.name)))]),
  );
  const kept = waiting.filter(
    (a) =>
      sizesOf.get(a.product_id)?.has(a.size) &&
      (a.colour === ALL_COLOURS || coloursOf.get(a.product_id)?.has(a.colour)),
  );
  for (let j = 0; j < kept.length; j += INSERT_BATCH) {
    await trx
      .insertInto('stock_alerts')
      .values(kept.slice(j, j + INSERT_BATCH).map((a) => ({ ...a, notified_at: null })))
      .execute();
  }
}

export type Stage = 'backup' | 'replacing' | 'committed';
export type StageHook = (stage: Stage) => void;

/** Publishes a version: back up the live catalogue, then replace it and mark the version active in one transaction. */
export async function setActiveVersion(
  deps: CatalogDeps,
  id: string,
  opts: { adminEmail?: string; onStage?: StageHook } = {},
): Promise<{ version: CatalogVersion; backup: CatalogVersion }> {
  const version = await findVersion(deps.db, id);
  const content = await readVersionContent(deps, id);
  let parsed: ParsedCatalog;
  try {
    // A big file is read in a worker thread: the store keeps answering meanwhile (catalog-parse.ts).
    parsed = await readCatalogFileOffThread(content, 'whole');
  } catch (err) {
    if (err instanceof CatalogFileError) throw new CatalogError('BAD_REQUEST', err.message);
    throw err;
  }
  if (parsed.invalidCount > 0) {
    const first = parsed.invalid[0];
    throw new CatalogError(
      'BAD_REQUEST',
      `This version has ${parsed.invalidCount} invalid product(s)${first ? ` (#${first.position} ${first.id ?? ''}: ${first.reason})` : ''}; the live catalogue was not changed.`,
    );
  }
  opts.onStage?.('backup');
  const backup = await exportCatalog(deps, {
    label: `Automatic backup before activating "${version.label || 'Unnamed Version'}"`,
    tags: ['automatic-backup'],
    kind: 'backup',
    ...(opts.adminEmail ? { adminEmail: opts.adminEmail } : {}),
  });
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    opts.onStage?.('replacing');
    await replaceCatalogue(
      trx,
      parsed.items,
      now,
      (reason) => new CatalogError('CONFLICT', `${reason}; the live catalogue was not changed.`),
    );
    await trx.updateTable('catalog_versions').set({ is_active: 0 }).where('is_active', '=', 1).execute();
    await trx
      .updateTable('catalog_versions')
      .set({ is_active: 1, updated_at: now.toISOString() })
      .where('id', '=', id)
      .execute();
  });
  opts.onStage?.('committed');
  return { version: { ...(await findVersion(deps.db, id)), isActive: true }, backup };
}

export type ImportMode = 'add' | 'overwrite';

/** An import refused as a whole (the HTTP route's 400), with nothing changed. */
const importRefusal = (reason: string) => new CatalogFileError(`${reason}. Nothing was changed.`);

export type ImportResult = {
  mode: ImportMode;
  total: number;
  added: number;
  skipped: ImportIssue[];
  skippedCount: number;
  invalid: ImportIssue[];
  invalidCount: number;
  /** Keys of the file no product field has, named one by one: read past, never dropped silently. */
  ignored: ImportIssue[];
  ignoredCount: number;
  backupVersionId: string | null;
  message: string;
};

/**
 * Imports a catalogue file. Add mode inserts the products whose id is new, in one transaction. Overwrite
 * mode refuses a file with any invalid product (it would drop products silently), saves a backup version,
 * then replaces the catalogue in one transaction.
 */
export async function importCatalog(
  deps: CatalogDeps,
  content: string,
  mode: ImportMode,
  opts: { adminEmail?: string; onStage?: StageHook } = {},
): Promise<ImportResult> {
  const parsed = await readCatalogFileOffThread(content, mode === 'overwrite' ? 'whole' : 'add');
  const now = deps.clock.now();
  let backupVersionId: string | null = null;
  let added = 0;
  const skipped: ImportIssue[] = [];
  let skippedCount = 0;
  let invalid = parsed.invalid;
  let invalidCount = parsed.invalidCount;
  if (mode === 'overwrite') {
    if (parsed.invalidCount > 0) {
      throw new CatalogFileError(
        `${parsed.invalidCount} of ${parsed.total} products are invalid; overwrite needs every product valid. Nothing was changed.` +
          parsed.invalid
            .slice(0, 5)
            .map((i) => `\n#${i.position}${i.id ? ` (${i.id})` : ''}: ${i.reason}`)
            .join(''),
      );
    }
    opts.onStage?.('backup');
    backupVersionId = (
      await exportCatalog(deps, {
        label: 'Automatic backup before overwrite import',
        tags: ['automatic-backup'],
        kind: 'backup',
        ...(opts.adminEmail ? { adminEmail: opts.adminEmail } : {}),
      })
    ).id;
    await deps.db.transaction().execute(async (trx) => {
      opts.onStage?.('replacing');
      await replaceCatalogue(trx, parsed.items, now, importRefusal);
    });
    added = parsed.items.length;
  } else {
    await deps.db.transaction().execute(async (trx) => {
      const existing = new Set((await trx.selectFrom('products').select('id').execute()).map((r) => r.id));
      const notThere = parsed.items.filter((item) => {
        if (!existing.has(item.id)) return true;
        skippedCount += 1;
        if (skipped.length < 200)
          skipped.push({ position: item.position, id: item.id, reason: 'Already exists' });
        return false;
      });
      // Of those, a product whose SKU the live catalogue or an earlier product of the file has is invalid.
      const fresh = refuseHeldSkus(notThere, await skuOwners(trx));
      invalid = mergeIssues(invalid, fresh.invalid);
      invalidCount += fresh.invalid.length;
      opts.onStage?.('replacing');
      await insertItemsOrRefuse(trx, fresh.items, now, importRefusal);
      added = fresh.items.length;
    });
  }
  opts.onStage?.('committed');
  const parts = [`Catalog imported successfully: ${added} of ${parsed.total} products added`];
  if (skippedCount > 0) parts.push(`${skippedCount} skipped (already exist)`);
  if (invalidCount > 0) parts.push(`${invalidCount} invalid`);
  if (parsed.ignoredCount > 0)
    parts.push(`${parsed.ignoredCount} unknown field${parsed.ignoredCount === 1 ? '' : 's'} ignored`);
  return {
    mode,
    total: parsed.total,
    added,
    skipped,
    skippedCount,
    invalid,
    invalidCount,
    ignored: parsed.ignored,
    ignoredCount: parsed.ignoredCount,
    backupVersionId,
    message: parts.join('; '),
  };
}
