import type { DbOrTx } from '../../db/database.js';
import type { AuditEntry, AuditListInput } from '../../shared/audit.js';

export type NewAuditEntry = {
  at: Date;
  adminId: number;
  adminEmail: string;
  ip: string | null;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
};

export async function recordAudit(db: DbOrTx, e: NewAuditEntry): Promise<void> {
  await db
    .insertInto('admin_audit')
    .values({
      at: e.at.toISOString(),
      admin_id: e.adminId,
      admin_email: e.adminEmail,
      ip: e.ip,
      action: e.action,
      target: e.target,
      details: JSON.stringify(e.details),
    })
    .execute();
}

/** Newest first, a page at a time (`cursor` is the last id seen), narrowed by admin, action and dates. */
export async function listAudit(
  db: DbOrTx,
  f: AuditListInput,
): Promise<{ items: AuditEntry[]; nextCursor: number | null }> {
  let q = db
    .selectFrom('admin_audit')
    .select(['id', 'at', 'admin_email', 'ip', 'action', 'target', 'details'])
    .orderBy('id', 'desc')
    .limit(f.limit + 1);
  if (f.admin) q = q.where('admin_email', '=', f.admin);
  if (f.action) q = q.where('action', '=', f.action);
  if (f.from) q = q.where('at', '>=', `${f.from}T00:00:00.000Z`);
  // The whole of the last day: up to the start of the next one.
  if (f.to) q = q.where('at', '<', nextDay(f.to));
  if (f.cursor !== undefined) q = q.where('id', '<', f.cursor);
  const rows = await q.execute();
  const page = rows.slice(0, f.limit);
  return {
    items: page.map((r) => ({
      id: r.id,
      at: r.at,
      admin: r.admin_email,
      ip: r.ip,
      action: r.action,
      target: r.target,
      details: parseDetails(r.details),
    })),
    nextCursor: rows.length > f.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** The admins and actions on record, for the filters. */
export async function auditFacets(db: DbOrTx): Promise<{ admins: string[]; actions: string[] }> {
  const admins = await db
    .selectFrom('admin_audit')
    .select('admin_email')
    .distinct()
    .orderBy('admin_email')
    .execute();
  const actions = await db.selectFrom('admin_audit').select('action').distinct().orderBy('action').execute();
  return { admins: admins.map((r) => r.admin_email), actions: actions.map((r) => r.action) };
}

/** Deletes entries older than the audit's own retention (AUDIT_RETENTION_DAYS). */
export async function pruneAudit(db: DbOrTx, now: Date, retentionDays: number): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  const result = await db.deleteFrom('admin_audit').where('at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
