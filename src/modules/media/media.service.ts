import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Db, DbOrTx, MediaType } from '../../db/database.js';
import { oneAtATime } from '../../db/engine-sql.js';
import { MAX_MEDIA_PER_PRODUCT, MEDIA_MESSAGES } from '../../shared/media-rules.js';
import type { StoredVariant } from '../../shared/responsive-image.js';
import type { FileStorage } from '../../storage/file-storage.js';
import { UPLOADS_PREFIX } from '../../storage/storage-keys.js';
import { followPhotoInColours, productPhotoUrls } from '../products/colour-photos.js';
import {
  countProductMedia,
  findMedia,
  listProductMedia,
  type MediaRow,
  nextDisplayOrder,
  productExists,
  storageKeysOf,
} from './media.repository.js';

export type MediaErrorKind = 'not_found' | 'limit' | 'invalid';

export class MediaError extends Error {
  constructor(
    readonly kind: MediaErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'MediaError';
  }
}

const productNotFound = () => new MediaError('not_found', 'Product not found');
const mediaNotFound = () => new MediaError('not_found', 'Media not found');

export type NewUrlMedia = {
  productId: string;
  url: string;
  fileName: string;
  mediaType: MediaType;
  altText: string | null;
};

export type NewUploadedMedia = {
  url: string;
  fileName: string;
  mediaType: MediaType;
  storageKey: string;
  contentType: string;
  byteSize: number;
  width: number | null;
  height: number | null;
  variants: StoredVariant[];
};

type InsertRow = {
  url: string;
  fileName: string;
  mediaType: MediaType;
  altText?: string | null;
  width: number | null;
  height: number | null;
  storageKey?: string;
  contentType?: string;
  byteSize?: number;
  variants?: StoredVariant[];
};

/**
 * Inserts new media for a product in one transaction that first counts what is there, so the 20-item limit
 * holds however many requests race (better-sqlite3 runs one transaction at a time on the connection).
 */
async function insertWithinLimit(
  db: Db,
  clock: Clock,
  productId: string,
  rows: InsertRow[],
): Promise<MediaRow[]> {
  const now = clock.now().toISOString();
  return db.transaction().execute(async (trx) => {
    // Count and insert as one step, so racing uploads cannot pass the limit together.
    await oneAtATime(trx, `media:${productId}`);
    if (!(await productExists(trx, productId))) throw productNotFound();
    const count = await countProductMedia(trx, productId);
    if (count + rows.length > MAX_MEDIA_PER_PRODUCT)
      throw new MediaError('limit', MEDIA_MESSAGES.limitReached);
    let order = await nextDisplayOrder(trx, productId);
    const values = rows.map((r) => ({
      id: randomUUID(),
      product_id: productId,
      url: r.url,
      file_name: r.fileName,
      media_type: r.mediaType,
      display_order: order++,
      alt_text: r.altText ?? null,
      created_at: now,
      updated_at: now,
      storage_key: r.storageKey ?? null,
      content_type: r.contentType ?? null,
      byte_size: r.byteSize ?? null,
      width: r.width,
      height: r.height,
      variants: JSON.stringify(r.variants ?? []),
    }));
    if (values.length > 0) await trx.insertInto('media').values(values).execute();
    const ids = new Set<string>(values.map((v) => v.id));
    return (await listProductMedia(trx, productId)).filter((r) => ids.has(r.id));
  });
}

export function addUrlMedia(db: Db, clock: Clock, input: NewUrlMedia): Promise<MediaRow> {
  return insertWithinLimit(db, clock, input.productId, [
    {
      url: input.url,
      fileName: input.fileName,
      mediaType: input.mediaType,
      altText: input.altText,
      width: null,
      height: null,
    },
  ]).then((rows) => {
    const [row] = rows;
    if (!row) throw new Error('inserted media row not found');
    return row;
  });
}

export function insertUploadedMedia(
  db: Db,
  clock: Clock,
  productId: string,
  items: NewUploadedMedia[],
): Promise<MediaRow[]> {
  return insertWithinLimit(db, clock, productId, items);
}

export type MediaPatch = { id: string; url?: string; fileName?: string; altText?: string | null };

/**
 * Changes a media item's URL, file name or alt text. Pointing an uploaded item at another URL detaches it
 * from its stored files: they are returned so the caller removes them after the commit.
 */
export async function updateMedia(
  db: Db,
  clock: Clock,
  patch: MediaPatch,
): Promise<{ row: MediaRow; orphanedKeys: string[] }> {
  return db.transaction().execute(async (trx) => {
    const current = await findMedia(trx, patch.id);
    if (!current) throw mediaNotFound();
    const detach = patch.url !== undefined && patch.url !== current.url && current.storage_key !== null;
    await trx
      .updateTable('media')
      .set({
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.fileName !== undefined ? { file_name: patch.fileName } : {}),
        ...(patch.altText !== undefined ? { alt_text: patch.altText } : {}),
        ...(detach
          ? {
              storage_key: null,
              content_type: null,
              byte_size: null,
              width: null,
              height: null,
              variants: '[]',
            }
          : {}),
        updated_at: clock.now().toISOString(),
      })
      .where('id', '=', patch.id)
      .execute();
    const row = await findMedia(trx, patch.id);
    if (!row) throw mediaNotFound();
    if (row.url !== current.url) await followPhotoInColours(trx, row.product_id, current.url, row.url);
    return { row, orphanedKeys: detach ? storageKeysOf(current) : [] };
  });
}

/** Deletes a media row (and closes the gap in the order); returns its storage keys to remove after commit. */
export async function removeMedia(
  db: Db,
  clock: Clock,
  id: string,
): Promise<{ productId: string; keys: string[] }> {
  return db.transaction().execute(async (trx) => {
    const row = await findMedia(trx, id);
    if (!row) throw mediaNotFound();
    await trx.deleteFrom('media').where('id', '=', id).execute();
    // Another media row (or the images list) with the same URL keeps the photo the product's.
    if (!(await productPhotoUrls(trx, row.product_id)).has(row.url))
      await followPhotoInColours(trx, row.product_id, row.url, null);
    await renumber(
      trx,
      clock,
      row.product_id,
      (await listProductMedia(trx, row.product_id)).map((r) => r.id),
    );
    return { productId: row.product_id, keys: storageKeysOf(row) };
  });
}

async function renumber(trx: DbOrTx, clock: Clock, productId: string, ids: string[]): Promise<void> {
  const now = clock.now().toISOString();
  for (const [position, id] of ids.entries()) {
    await trx
      .updateTable('media')
      .set({ display_order: position, updated_at: now })
      .where('id', '=', id)
      .where('product_id', '=', productId)
      .where('display_order', '!=', position)
      .execute();
  }
}

/**
 * Puts a product's media in the given order (display_order = position) in one transaction. The list must
 * be exactly the product's media: an id of another product, a duplicate or a missing one is refused.
 */
export async function reorderMedia(
  db: Db,
  clock: Clock,
  productId: string,
  ids: string[],
): Promise<MediaRow[]> {
  return db.transaction().execute(async (trx) => {
    if (!(await productExists(trx, productId))) throw productNotFound();
    const current = await listProductMedia(trx, productId);
    const known = new Set(current.map((r) => r.id));
    const given = new Set(ids);
    if (given.size !== ids.length || ids.some((id) => !known.has(id))) {
      throw new MediaError('invalid', 'Some media do not belong to this product');
    }
    if (given.size !== known.size) {
      throw new MediaError('invalid', 'The media list changed meanwhile; reload and try again');
    }
    await renumber(trx, clock, productId, ids);
    return listProductMedia(trx, productId);
  });
}

/**
 * The uploaded files of a product's media, for deleting the product: call it inside the delete
 * transaction (before the rows go by FK cascade), then pass the keys to `removeStoredFiles` after commit.
 */
export async function storageKeysForProduct(db: DbOrTx, productId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('media')
    .select(['storage_key', 'variants'])
    .where('product_id', '=', productId)
    .execute();
  return rows.flatMap(storageKeysOf);
}

/**
 * Deletes stored files after the rows that referenced them are committed away. Only keys under
 * media/uploads/ are touched (demo and catalogue files are never ours to delete). A failure is logged,
 * never thrown: the rows are gone already, and an orphaned file is harmless.
 */
export async function removeStoredFiles(
  storage: FileStorage,
  keys: readonly string[],
  log?: Pick<FastifyBaseLogger, 'warn'>,
): Promise<void> {
  for (const key of new Set(keys)) {
    if (!key.startsWith(UPLOADS_PREFIX)) continue;
    try {
      await storage.remove(key);
    } catch (err) {
      log?.warn({ err, key }, 'could not remove a stored media file');
    }
  }
}
