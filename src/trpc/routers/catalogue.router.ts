import { TRPCError } from '@trpc/server';
import { RetryLater } from '../../core/failures.js';
import { findProductDetail } from '../../modules/catalogue/catalogue.repository.js';
import {
  facetCounts,
  findProductIdBySlug,
  relatedProducts,
  searchProducts,
} from '../../modules/catalogue/catalogue-search.repository.js';
import { withSoldOut } from '../../modules/stock/stock.repository.js';
import { addStockAlert } from '../../modules/stock/stock-alerts.js';
import {
  catalogueFilterInput,
  catalogueSearchInput,
  productIdInput,
  productSlugInput,
  stockAlertInput,
} from '../../shared/storefront-input.js';
import { publicProcedure, router } from '../init.js';
import { publicQuery } from '../public-query.js';

/** The storefront's two hottest queries, also run without tRPC's caller (trpc/public-caller.ts). */
export const catalogueQueries = {
  /** A page of product cards for a search, filters and sort. */
  search: publicQuery(catalogueSearchInput, async (ctx, input) =>
    searchProducts(ctx.db, input, {
      revision: await ctx.storefrontRevision?.(),
      sort: input.sort,
      offset: input.cursor ?? 0,
      limit: input.limit,
      snapshot: { log: ctx.log },
    }),
  ),

  /** Option counts for each filter group under the current search and other filters. */
  facets: publicQuery(catalogueFilterInput, async (ctx, input) => {
    const { facets, upToDate } = await facetCounts(ctx.db, input, {
      revision: await ctx.storefrontRevision?.(),
      log: ctx.log,
    });
    // Counted by an older snapshot while a newer one loads: right for its own revision only, so the
    // response caches, which would keep it under the current one, must not.
    if (!upToDate) ctx.keepOutOfResponseCaches();
    return facets;
  }),
};

export const catalogueRouter = router({
  search: publicProcedure
    .input(catalogueQueries.search.input)
    .query(({ ctx, input }) => catalogueQueries.search.run(ctx, input)),

  facets: publicProcedure
    .input(catalogueQueries.facets.input)
    .query(({ ctx, input }) => catalogueQueries.facets.run(ctx, input)),

  byId: publicProcedure.input(productIdInput).query(async ({ ctx, input }) => {
    const product = await findProductDetail(ctx.db, input.id, {
      revision: await ctx.storefrontRevision?.(),
    });
    if (!product) throw new TRPCError({ code: 'NOT_FOUND', message: 'Product not found' });
    return product;
  }),

  related: publicProcedure.input(productIdInput).query(async ({ ctx, input }) => {
    const related = await relatedProducts(ctx.db, input.id, { revision: await ctx.storefrontRevision?.() });
    return { ...related, items: await withSoldOut(ctx.db, related.items) };
  }),

  /** Leaves an address to be told once when a sold-out size is back (limited per address). */
  notifyWhenBack: publicProcedure.input(stockAlertInput).mutation(async ({ ctx, input }) => {
    const admission = await ctx.limits.stockAlerts.admit(ctx.ip);
    if (!admission.taken) {
      throw new TRPCError({
        code: 'TOO_MANY_REQUESTS',
        message: 'Too many requests from your address. Please try again later.',
        cause: new RetryLater(admission.retryAfterSeconds),
      });
    }
    await addStockAlert(ctx.db, { ...input, now: ctx.clock.now() });
    ctx.log.info(
      { event: 'stock.alert_added', product: input.productId, colour: input.colour, size: input.size },
      'back-in-stock alert',
    );
    return { ok: true as const };
  }),

  /** The product a /products/:slug link means (by id or slugified title), or null. */
  bySlug: publicProcedure
    .input(productSlugInput)
    .query(async ({ ctx, input }) => ({ id: await findProductIdBySlug(ctx.db, input.slug) })),
});
