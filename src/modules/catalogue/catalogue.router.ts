import { TRPCError } from '@trpc/server';
import { catalogueListInput, productIdInput } from '../../shared/catalogue.js';
import { publicProcedure, router } from '../../trpc/init.js';
import { findProductDetail, listProductCards } from './catalogue.repository.js';

export const catalogueRouter = router({
  list: publicProcedure
    .input(catalogueListInput)
    .query(({ ctx, input }) => listProductCards(ctx.db, { limit: input.limit, cursor: input.cursor })),

  byId: publicProcedure.input(productIdInput).query(async ({ ctx, input }) => {
    const product = await findProductDetail(ctx.db, input.id);
    if (!product) throw new TRPCError({ code: 'NOT_FOUND', message: 'Product not found' });
    return product;
  }),
});
