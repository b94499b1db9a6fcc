import { TRPCError } from '@trpc/server';
import {
  catalogueFilterInput,
  catalogueSearchInput,
  productIdInput,
  productSlugInput,
} from '../../shared/catalogue-input.js';
import { publicProcedure, router } from '../../trpc/init.js';
import { findProductDetail } from './catalogue.repository.js';
import {
  facetCounts,
  findProductIdBySlug,
  relatedProducts,
  searchProducts,
} from './catalogue-search.repository.js';

export const catalogueRouter = router({
  /** A page of product cards for a search, filters and sort. */
  search: publicProcedure
    .input(catalogueSearchInput)
    .query(({ ctx, input }) =>
      searchProducts(ctx.db, input, { sort: input.sort, offset: input.cursor ?? 0, limit: input.limit }),
    ),

  /** Option counts for each filter group under the current search and other filters. */
  facets: publicProcedure.input(catalogueFilterInput).query(({ ctx, input }) => facetCounts(ctx.db, input)),

  byId: publicProcedure.input(productIdInput).query(async ({ ctx, input }) => {
    const product = await findProductDetail(ctx.db, input.id);
    if (!product) throw new TRPCError({ code: 'NOT_FOUND', message: 'Product not found' });
    return product;
  }),

  related: publicProcedure.input(productIdInput).query(({ ctx, input }) => relatedProducts(ctx.db, input.id)),

  /** The product a /products/:slug link means (by id or slugified title), or null. */
  bySlug: publicProcedure
    .input(productSlugInput)
    .query(async ({ ctx, input }) => ({ id: await findProductIdBySlug(ctx.db, input.slug) })),
});
