import { z } from 'zod';
import { CLIENT_ERROR_LIMITS, VITALS_MAX_METRICS } from './telemetry-limits.js';
import { VITAL_NAMES } from './web-vitals.js';

export const clientErrorReportInput = z.object({
  kind: z.enum(['error', 'unhandledrejection']),
  message: z.string().trim().min(1).max(CLIENT_ERROR_LIMITS.message),
  stack: z.string().max(CLIENT_ERROR_LIMITS.stack).optional(),
  route: z.string().max(CLIENT_ERROR_LIMITS.route),
  userAgent: z.string().max(CLIENT_ERROR_LIMITS.userAgent).optional(),
});
export type ClientErrorReport = z.infer<typeof clientErrorReportInput>;

/** What the storefront's vitals beacon sends: the page's path and up to ten measurements. */
export const vitalsReportInput = z.object({
  path: z.string().min(1).max(2048),
  metrics: z
    .array(
      z.object({
        name: z.enum(VITAL_NAMES),
        value: z.number().finite().min(0).max(600_000),
        navigationType: z.string().max(32).optional(),
      }),
    )
    .min(1)
    .max(VITALS_MAX_METRICS),
});
export type VitalsReport = z.infer<typeof vitalsReportInput>;
