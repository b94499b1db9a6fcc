import type { Selectable } from 'kysely';
import type { DbOrTx, MediaTable, MediaType } from '../../db/database.js';
import { parseVariants } from '../../shared/responsive-image.js';

export type MediaRow = Selectable<MediaTable>;

/** What the admin sees of one media item. */
export type AdminMediaItem = {
  id: string;
  productId: string;
  url: string;
  fileName: string;
  mediaType: MediaType;
  altText: string | null;
  displayOrder: number;
  /** True for files uploaded to this store (their files go when the item goes). */
  uploaded: boolean;
  contentType: string | null;
  byteSize: number | null;
  width: number | null;
  height: number | null;
  variants: { url: string; width: number; format: 'webp' | 'avif' }[];
  createdAt: string;
  updatedAt: string;
};

export function toAdminMediaItem(row: MediaRow): AdminMediaItem {
  return {
    id: row.id,
    productId: row.product_id,
    url: row.url,
    fileName: row.file_name,
    mediaType: row.media_type,
    altText: row.alt_text,
    displayOrder: row.display_order,
    uploaded: row.storage_key !== null,
    contentType: row.content_type,
    byteSize: row.byte_size,
    width: row.width,
    height: row.height,
    variants: parseVariants(row.variants).map(({ url, width, format }) => ({ url, width, format })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function listProductMedia(db: DbOrTx, productId: string): Promise<MediaRow[]> {
  return db
    .selectFrom('media')
    .selectAll()
    .where('product_id', '=', productId)
    .orderBy('display_order')
    .orderBy('id')
    .execute();
}

export function findMedia(db: DbOrTx, id: string): Promise<MediaRow | undefined> {
  return db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countProductMedia(db: DbOrTx, productId: string): Promise<number> {
  const row = await db
    .selectFrom('media')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('product_id', '=', productId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function productExists(db: DbOrTx, productId: string): Promise<boolean> {
  const row = await db.selectFrom('products').select('id').where('id', '=', productId).executeTakeFirst();
  return row !== undefined;
}

export async function nextDisplayOrder(db: DbOrTx, productId: string): Promise<number> {
  const row = await db
    .selectFrom('media')
    .select((eb) => eb.fn.max<number | null>('display_order').as('max'))
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
}

/** Every storage key a row owns: its main file and each variant. */
export function storageKeysOf(row: Pick<MediaRow, 'storage_key' | 'variants'>): string[] {
  const keys = new Set<string>();
  if (row.storage_key) keys.add(row.storage_key);
  for (const v of parseVariants(row.variants)) keys.add(v.storageKey);
  return [...keys];
}
