import { countLogs, listLogSources, listLogs } from '../../modules/logs/logs.repository.js';
import { logListInput } from '../../shared/logs.js';
import { ownerProcedure, router } from '../init.js';

export const adminLogsRouter = router({
  /** Newest first, filtered and paged on the server; what was logged a moment ago is written first. */
  list: ownerProcedure.input(logListInput).query(async ({ ctx, input }) => {
    await ctx.logs.flush();
    const page = await listLogs(ctx.db, input);
    const total = input.cursor ? null : await countLogs(ctx.db, input);
    return { ...page, total };
  }),

  sources: ownerProcedure.query(async ({ ctx }) => ({ sources: await listLogSources(ctx.db) })),

  clear: ownerProcedure.mutation(async ({ ctx }) => {
    const removed = await ctx.logs.clear();
    // To standard output only (no `event` field): an entry in the table would undo the clearing.
    ctx.log.info({ account: ctx.admin.email, removed }, 'application log cleared');
    return { removed };
  }),
});
