import { TRPCError } from '@trpc/server';
import { listProductMedia, productExists, toAdminMediaItem } from '../../modules/media/media.repository.js';
import {
  addUrlMedia,
  MediaError,
  removeMedia,
  removeStoredFiles,
  reorderMedia,
  updateMedia,
} from '../../modules/media/media.service.js';
import {
  mediaAddUrlInput,
  mediaListInput,
  mediaRemoveInput,
  mediaReorderInput,
  mediaUpdateInput,
} from '../../shared/media-input.js';
import { MAX_MEDIA_PER_PRODUCT } from '../../shared/media-rules.js';
import { adminProcedure, router } from '../init.js';

function toTrpcError(err: unknown): never {
  if (err instanceof MediaError) {
    const code = err.kind === 'not_found' ? 'NOT_FOUND' : err.kind === 'limit' ? 'CONFLICT' : 'BAD_REQUEST';
    throw new TRPCError({ code, message: err.message, cause: err });
  }
  throw err;
}

/** admin.media.*: a product's photos, documents and videos. Uploads go through POST /api/admin/products/:id/media. */
export const adminMediaRouter = router({
  list: adminProcedure.input(mediaListInput).query(async ({ ctx, input }) => {
    if (!(await productExists(ctx.db, input.productId))) {
      throw new TRPCError({ code: 'NOT_FOUND', message: 'Product not found' });
    }
    const rows = await listProductMedia(ctx.db, input.productId);
    return { items: rows.map(toAdminMediaItem), max: MAX_MEDIA_PER_PRODUCT };
  }),

  addUrl: adminProcedure.input(mediaAddUrlInput).mutation(async ({ ctx, input }) => {
    const row = await addUrlMedia(ctx.db, ctx.clock, input).catch(toTrpcError);
    ctx.log.info(
      { event: 'media.added', account: ctx.admin.email, product: input.productId, media: row.id },
      'media added by URL',
    );
    return toAdminMediaItem(row);
  }),

  update: adminProcedure.input(mediaUpdateInput).mutation(async ({ ctx, input }) => {
    const { row, orphanedKeys } = await updateMedia(ctx.db, ctx.clock, input).catch(toTrpcError);
    await removeStoredFiles(ctx.storage, orphanedKeys, ctx.log);
    ctx.log.info({ event: 'media.updated', account: ctx.admin.email, media: row.id }, 'media updated');
    return toAdminMediaItem(row);
  }),

  remove: adminProcedure.input(mediaRemoveInput).mutation(async ({ ctx, input }) => {
    const { productId, keys } = await removeMedia(ctx.db, ctx.clock, input.id).catch(toTrpcError);
    // The row is committed away first; its files go after, so a failure here never leaves a broken row.
    await removeStoredFiles(ctx.storage, keys, ctx.log);
    ctx.log.info(
      { event: 'media.removed', account: ctx.admin.email, product: productId, media: input.id },
      'media removed',
    );
    return { id: input.id, productId };
  }),

  reorder: adminProcedure.input(mediaReorderInput).mutation(async ({ ctx, input }) => {
    const rows = await reorderMedia(ctx.db, ctx.clock, input.productId, input.ids).catch(toTrpcError);
    return { items: rows.map(toAdminMediaItem) };
  }),
});
