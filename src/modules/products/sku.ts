import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { equalsNoCase, isUniqueViolation } from '../../db/engine-sql.js';
import { skuKey } from '../../shared/product-input.js';

/**
 * SKU uniqueness as the database enforces it (migration 0012, decision 0012): compared with NOCASE, blank
 * SKUs exempt. These read it so a write can be refused with the owner's name before the index refuses it.
 */

export type SkuOwner = { id: string; title: string; sku: string };

/** The product using `sku` (as the unique index compares), leaving out `exceptId` (the product being saved). */
export async function findSkuOwner(
  db: DbOrTx,
  sku: string,
  exceptId?: string,
): Promise<SkuOwner | undefined> {
  let query = db
    .selectFrom('products')
    .select(['id', 'title', 'sku'])
    // The same terms as the partial index, so SQLite answers from it.
    .where(equalsNoCase(db, sql.ref('sku'), sku))
    .where(sql<boolean>`trim(sku) <> ''`);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return query.executeTakeFirst();
}

/** Every non-blank SKU of the live catalogue by its key, for checking many imported products at once. */
export async function skuOwners(db: DbOrTx): Promise<Map<string, SkuOwner>> {
  const rows = await db
    .selectFrom('products')
    .select(['id', 'title', 'sku'])
    .where(sql<boolean>`trim(sku) <> ''`)
    .execute();
  return new Map(rows.map((r) => [skuKey(r.sku), r]));
}

/**
 * Whether `err` is the unique index on products.sku refusing a write: a concurrent writer took the SKU
 * between the check and the write. Callers answer it with the same message as the check.
 */
export function isSkuConflict(err: unknown): boolean {
  return isUniqueViolation(err, { postgres: 'products_sku_unique', sqlite: /\bproducts\.sku\b/ });
}
