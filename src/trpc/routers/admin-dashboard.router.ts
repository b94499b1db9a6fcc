import { dashboardOverview } from '../../modules/dashboard/overview.js';
import { dashboardPeriodInput } from '../../shared/dashboard.js';
import { adminProcedure, router } from '../init.js';

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
});
