import { z } from 'zod';

export const LOG_LEVELS = ['info', 'warning', 'error'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export const LOG_SEARCH_MAX = 200;

/** Filters of the admin log viewer and its export. */
export const logFilterInput = z.object({
  level: z.enum(LOG_LEVELS).optional(),
  source: z.string().trim().min(1).max(32).optional(),
  q: z.string().trim().max(LOG_SEARCH_MAX).optional(),
});
export type LogFilter = z.infer<typeof logFilterInput>;

export const logListInput = logFilterInput.extend({
  cursor: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
