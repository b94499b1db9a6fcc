import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { RetryLater } from '../../core/failures.js';
import { vitalSamplesSince } from '../../modules/telemetry/vitals.repository.js';
import { summarizeVitals } from '../../modules/telemetry/vitals-summary.js';
import { clientErrorReportInput } from '../../shared/telemetry.js';
import { ownerProcedure, publicProcedure, router } from '../init.js';

export const telemetryRouter = router({
  /**
   * Uncaught errors and unhandled rejections from browsers, into the application log with source 'client'.
   * Public, so it is limited per IP and by size; the text is stored as data, never interpreted.
   */
  reportError: publicProcedure.input(clientErrorReportInput).mutation(async ({ ctx, input }) => {
    const admission = await ctx.telemetry.errorReports.admit(ctx.ip);
    if (!admission.taken) {
      throw new TRPCError({
        code: 'TOO_MANY_REQUESTS',
        message: 'Too many error reports',
        cause: new RetryLater(admission.retryAfterSeconds),
      });
    }
    const route = input.route.split(/[?#]/)[0] ?? '';
    ctx.log.error(
      { event: 'client.error', kind: input.kind, route, userAgent: input.userAgent, stack: input.stack },
      input.message,
    );
    return { ok: true };
  }),
});

export const adminPerformanceRouter = router({
  /** Real-user performance per metric and route pattern: p75, average, best, worst, rating and trend. */
  summary: ownerProcedure
    .input(z.object({ days: z.union([z.literal(7), z.literal(30)]).default(7) }).optional())
    .query(async ({ ctx, input }) => {
      const days = input?.days ?? 7;
      const now = ctx.clock.now();
      const samples = await vitalSamplesSince(
        ctx.db,
        new Date(now.getTime() - Math.max(days, 14) * 86_400_000),
      );
      return summarizeVitals(samples, now, days);
    }),
});
