import { TRPCError } from '@trpc/server';
import { ZodRealError, z } from 'zod';
import type { DbOrTx } from '../../db/database.js';
import { undoneAloneOnError } from '../../db/engine-sql.js';
import { removeStoredFiles, storageKeysForProduct } from '../../modules/media/media.service.js';
import {
  type ColourPhotoIssue,
  colourPhotoIssues,
  listedImagesOf,
  productPhotoUrls,
} from '../../modules/products/colour-photos.js';
import { diffProducts, productHistory, recordHistory } from '../../modules/products/product-history.js';
import { newProductId } from '../../modules/products/product-id.js';
import {
  deleteProductRow,
  findAdminProduct,
  insertProduct,
  listAdminProducts,
  updateProduct,
} from '../../modules/products/products.repository.js';
import { findSkuOwner, isSkuConflict } from '../../modules/products/sku.js';
import { readStoredSettings } from '../../modules/settings/settings.repository.js';
import { lowStock } from '../../modules/stock/stock.repository.js';
import {
  adminProductListInput,
  createProductInput,
  productIdSchema,
  skuTakenMessage,
  updateProductInput,
} from '../../shared/product-input.js';
import { adminProcedure, router } from '../init.js';

// Kept here for its importers; it lives in product-id.ts so the catalogue parse worker can use it without the database.

const idInput = z.object({ id: productIdSchema });

/**
 * Runs the write that gives product `id` this SKU, refused (CONFLICT, naming the product that has it) when
 * another product uses it: checked first, and again when the unique index refuses the write because a
 * concurrent writer took the SKU in between, so that case is the same clear message and not a 500.
 */
async function withUniqueSku<T>(trx: DbOrTx, id: string, sku: string, write: () => Promise<T>): Promise<T> {
  const refusal = async () => {
    const owner = await findSkuOwner(trx, sku, id);
    return new TRPCError({ code: 'CONFLICT', message: skuTakenMessage(sku, owner?.title) });
  };
  if (await findSkuOwner(trx, sku, id)) throw await refusal();
  try {
    return await undoneAloneOnError(trx, write);
  } catch (err) {
    if (isSkuConflict(err)) throw await refusal();
    throw err;
  }
}

/**
 * Refuses colour photos that are not this product's, as a validation error at the colour's own path
 * (fields.colors.2.images), like the form's other field errors.
 */
function refuseColourPhotos(issues: ColourPhotoIssue[]): void {
  const first = issues[0];
  if (!first) return;
  throw new TRPCError({
    code: 'BAD_REQUEST',
    message: first.message,
    // ZodRealError: the ZodError that is an Error, as a parse throws it (tRPC keeps only an Error as the cause).
    cause: new ZodRealError(
      issues.map((i) => ({
        code: 'custom' as const,
        path: ['fields', ...i.path],
        message: i.message,
        input: undefined,
      })),
    ),
  });
}

/** admin.products.*: the operator's catalogue. Every change is recorded in product_history with who made it. */
export const adminProductsRouter = router({
  list: adminProcedure.input(adminProductListInput).query(({ ctx, input }) =>
    listAdminProducts(ctx.db, {
      q: input.q,
      sort: input.sort,
      dir: input.dir,
      offset: input.cursor ?? 0,
      limit: input.limit,
    }),
  ),

  byId: adminProcedure.input(idInput).query(async ({ ctx, input }) => {
    const product = await findAdminProduct(ctx.db, input.id);
    if (!product) throw new TRPCError({ code: 'NOT_FOUND', message: 'Product not found' });
    // The image URLs of a product imported from a plain catalogue file: photos its colours can claim too.
    return { ...product, listedImages: await listedImagesOf(ctx.db, input.id) };
  }),

  /** A fresh id for the Add New Product form (it shows the id, SKU and image folder derived from it). */
  newId: adminProcedure.query(() => ({ id: newProductId() })),

  create: adminProcedure.input(createProductInput).mutation(async ({ ctx, input }) => {
    const id = input.id ?? newProductId();
    const now = ctx.clock.now();
    // A product being created has no photos yet: its colours get theirs once it has some.
    refuseColourPhotos(colourPhotoIssues(input.fields.colors, new Set()));
    const product = await ctx.db.transaction().execute(async (trx) => {
      if (await findAdminProduct(trx, id)) {
        throw new TRPCError({ code: 'CONFLICT', message: 'A product with this id already exists' });
      }
      await withUniqueSku(trx, id, input.fields.sku, () => insertProduct(trx, id, input.fields, now));
      const created = await findAdminProduct(trx, id);
      if (!created) throw new Error('product vanished after insert');
      await recordHistory(trx, {
        productId: id,
        title: created.title,
        action: 'create',
        adminEmail: ctx.admin.email,
        snapshot: created,
        changes: [],
        now,
      });
      return created;
    });
    ctx.log.info(
      { event: 'product.created', product: id, account: ctx.admin.email },
      `product created: ${product.title}`,
    );
    return product;
  }),

  update: adminProcedure.input(updateProductInput).mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const product = await ctx.db.transaction().execute(async (trx) => {
      const before = await findAdminProduct(trx, input.id);
      if (!before) throw new TRPCError({ code: 'NOT_FOUND', message: 'Product not found' });
      refuseColourPhotos(colourPhotoIssues(input.fields.colors, await productPhotoUrls(trx, input.id)));
      const updated = await withUniqueSku(trx, input.id, input.fields.sku, () =>
        updateProduct(trx, input.id, input.expectedUpdatedAt, input.fields, now),
      );
      if (!updated) {
        throw new TRPCError({
          code: 'CONFLICT',
          message:
            'Someone else changed this product while you were editing. Reload it to see their changes, then edit again.',
        });
      }
      const after = await findAdminProduct(trx, input.id);
      if (!after) throw new Error('product vanished after update');
      // Photos are named in the history by the file the owner uploaded, not by their stored URL.
      const photoFiles = await trx
        .selectFrom('media')
        .select(['url', 'file_name'])
        .where('product_id', '=', input.id)
        .execute();
      const changes = diffProducts(before, after, new Map(photoFiles.map((m) => [m.url, m.file_name])));
      await recordHistory(trx, {
        productId: input.id,
        title: after.title,
        action: 'update',
        adminEmail: ctx.admin.email,
        snapshot: after,
        changes,
        now,
      });
      ctx.audit.changes = changes;
      return after;
    });
    // Raised stock (or a size no longer tracked) can be bought again: its waiting shoppers are told now.
    ctx.backInStock.nudge();
    ctx.log.info(
      { event: 'product.updated', product: input.id, account: ctx.admin.email },
      `product updated: ${product.title}`,
    );
    return product;
  }),

  /** Deletes the product with its media rows in one transaction, then its stored files. */
  remove: adminProcedure
    .meta({ freshCode: true })
    .input(idInput)
    .mutation(async ({ ctx, input }) => {
      const now = ctx.clock.now();
      const keys = await ctx.db.transaction().execute(async (trx) => {
        const before = await findAdminProduct(trx, input.id);
        if (!before) throw new TRPCError({ code: 'NOT_FOUND', message: 'Product not found' });
        const files = await storageKeysForProduct(trx, input.id);
        await deleteProductRow(trx, input.id);
        await recordHistory(trx, {
          productId: input.id,
          title: before.title,
          action: 'delete',
          adminEmail: ctx.admin.email,
          snapshot: before,
          changes: [],
          now,
        });
        return files;
      });
      // Files go only after the commit: a failed delete never leaves a product pointing at missing files.
      await removeStoredFiles(ctx.storage, keys, ctx.log);
      ctx.log.info(
        { event: 'product.deleted', product: input.id, account: ctx.admin.email },
        `product deleted: ${input.id}`,
      );
      return { ok: true as const };
    }),

  history: adminProcedure.input(idInput).query(({ ctx, input }) => productHistory(ctx.db, input.id)),
  /** The sizes at or under the settings' low-stock threshold, for the dashboard. */
  lowStock: adminProcedure.query(async ({ ctx }) => {
    const { lowStockThreshold } = await readStoredSettings(ctx.db);
    const threshold = lowStockThreshold ?? 2;
    return { threshold, items: await lowStock(ctx.db, threshold) };
  }),
});
