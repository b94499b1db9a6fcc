import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { recordAudit } from './audit.repository.js';
import { auditInput, auditTarget } from './audit-details.js';

/**
 * What a procedure adds to its audit entry: `changes` (field, from, to) when it edits something, so the
 * entry says what was there before as well as what the admin asked for.
 */
export type AuditNote = { changes?: unknown };

/**
 * Who made the change, as the entry records it. Audit says what it needs rather than take auth's session
 * type: auth records its own changes through this module, and the two would otherwise know each other.
 */
export type AuditActor = { id: number; email: string };

/**
 * Records an admin's change after it succeeded. The change is made by then, so a failure to record it is
 * not the admin's: it is logged as an error and the answer stands (decision 0031).
 */
export async function recordAdminChange(
  ctx: { db: Db; clock: Clock; ip: string; log: FastifyBaseLogger },
  admin: AuditActor,
  action: string,
  input: unknown,
  note: AuditNote = {},
): Promise<void> {
  try {
    await recordAudit(ctx.db, {
      at: ctx.clock.now(),
      adminId: admin.id,
      adminEmail: admin.email,
      ip: ctx.ip || null,
      action,
      target: auditTarget(input),
      details: {
        ...(input === undefined ? {} : { input: auditInput(input) }),
        ...(note.changes === undefined ? {} : { changes: auditInput(note.changes) }),
      },
    });
  } catch (error) {
    ctx.log.error(
      { err: error, event: 'audit.failed', action, account: admin.email },
      'could not record an admin change',
    );
  }
}
