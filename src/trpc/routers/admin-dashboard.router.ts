import { TRPCError } from '@trpc/server';
import { dashboardOverview } from '../../modules/dashboard/overview.js';
import { sellThrough } from '../../modules/dashboard/sell-through.js';
import { periodIn, shopPeriod } from '../../modules/dashboard/shop-period.js';
import { storefrontHealth } from '../../modules/dashboard/storefront-health.js';
import { refreshSummary } from '../../modules/dashboard/summary-refresh.js';
import { readTimeZone } from '../../modules/settings/settings.repository.js';
import { dashboardPeriodInput, sellThroughInput } from '../../shared/dashboard.js';
import { adminProcedure, ownerProcedure, router } from '../init.js';

/**
 * admin.dashboard.*: the owner's overview (issue 44, decision 0041). Any admin sees today's work; the
 * money is the owner's, so staff get no period (the module never computes it for them).
 */
export const adminDashboardRouter = router({
  overview: adminProcedure
    .input(dashboardPeriodInput)
    .query(({ ctx, input }) =>
      dashboardOverview(ctx.db, input, { role: ctx.admin.role, now: ctx.clock.now() }),
    ),

  /** Units sold per size against on hand, and the reorder's size mix: no money in it, so staff see it too. */
  sellThrough: adminProcedure.input(sellThroughInput).query(async ({ ctx, input }) => {
    const zone = await readTimeZone(ctx.db);
    const { range } = periodIn(input, ctx.clock.now(), zone);
    // Sales are read from the summaries: brought up to date first (no money in them reaches staff).
    await refreshSummary(ctx.db, zone);
    const view = await sellThrough(ctx.db, {
      productId: input.productId ?? null,
      range,
      reorderPieces: input.reorderPieces,
    });
    if (!view) throw new TRPCError({ code: 'NOT_FOUND', message: 'No such product' });
    return view;
  }),

  /** Web vitals p75 and the error count: the log is the owner's (decision 0030). */
  health: ownerProcedure.input(dashboardPeriodInput).query(async ({ ctx, input }) => {
    const { range } = await shopPeriod(ctx.db, input, ctx.clock.now());
    // What was logged a moment ago is counted too, as the Logs tab shows it.
    await ctx.logs.flush();
    return storefrontHealth(ctx.db, range);
  }),
});
