import { z } from 'zod';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD');

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
