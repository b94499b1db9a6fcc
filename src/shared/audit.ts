import { z } from 'zod';

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD')
  .refine(isCalendarDay, 'Not a date in the calendar');

/** 2026-02-28 is; 2026-02-30 and 2026-13-01 are not. */
function isCalendarDay(v: string): boolean {
  const t = Date.parse(`${v}T00:00:00.000Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(v);
}

/** The Audit view's filters (owner only): an admin, an action, a range of days (UTC), and the page. */
export const auditListInput = z.object({
  admin: z.string().trim().max(254).optional(),
  action: z.string().trim().max(200).optional(),
  from: day.optional(),
  to: day.optional(),
  cursor: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
export type AuditListInput = z.infer<typeof auditListInput>;

/** One change an admin made, as the Audit view shows it. */
export type AuditEntry = {
  id: number;
  at: string;
  admin: string;
  ip: string | null;
  action: string;
  target: string | null;
  /** The input with secrets left out, and `changes` (field, from, to) for edits. */
  details: Record<string, unknown>;
};
