import { randomBytes } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import { z } from 'zod';
import type { Database, DbOrTx, EmailKind, EmailStatus } from '../../db/database.js';

/**
 * The email outbox: every order email is a row here first, written in the transaction of the change that
 * causes it, and sent later by the worker (mail-worker.ts). A row is queued (due at next_attempt_at), sending
 * (claimed by one process until claim_expires_at), sent, or failed (given up, with the reason). Several
 * processes share the table: each claims an email with one conditional UPDATE that only one of them wins.
 */

export type { EmailKind, EmailStatus };
export const EMAIL_KINDS = [
  'order_confirmation',
  'order_shipped',
  'order_refund',
  'back_in_stock',
  'admin_invite',
  'order_payment_step',
  'return_step',
] as const satisfies readonly EmailKind[];

export type OutgoingEmail = {
  kind: EmailKind;
  orderId: string | null;
  to: string;
  subject: string;
  html: string;
  text: string;
};

export type OutboxEntry = {
  id: string;
  kind: EmailKind;
  to: string;
  subject: string;
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  nextAttemptAt: string | null;
};

/** An email this process has claimed and now sends. */
export type ClaimedEmail = {
  id: string;
  kind: EmailKind;
  orderId: string | null;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** This attempt's number, counting it (1 for the first). */
  attempts: number;
};

export const MAX_SUBJECT_LENGTH = 300;
export const MAX_HTML_LENGTH = 200_000;
export const MAX_TEXT_LENGTH = 100_000;
export const MAX_ERROR_LENGTH = 1000;

/** The reason an email shows while no mail server is configured (it stays queued for one). */
export const NO_MAIL_SERVER = 'not sent: no mail server configured';
export const INVALID_RECIPIENT = 'not sent: the recipient address is not valid';

/** The caller's email, checked before it is stored: sizes are capped, a subject stays one line. */
const outgoingEmailSchema = z.object({
  kind: z.enum(EMAIL_KINDS),
  orderId: z.string().min(1).max(100).nullable(),
  to: z.string().trim().max(1000),
  subject: z
    .string()
    .transform((s) => s.replace(/\s+/g, ' ').trim())
    .pipe(z.string().min(1).max(MAX_SUBJECT_LENGTH)),
  html: z.string().min(1).max(MAX_HTML_LENGTH),
  text: z.string().min(1).max(MAX_TEXT_LENGTH),
});

const recipientSchema = z.email().max(254);

export function newEmailId(): string {
  return `eml_${randomBytes(12).toString('base64url')}`;
}

export function clipError(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim() || 'unknown error';
  return oneLine.length > MAX_ERROR_LENGTH ? `${oneLine.slice(0, MAX_ERROR_LENGTH - 1)}…` : oneLine;
}

/**
 * Queues an email inside the caller's transaction (so it commits with the change that caused it). Returns its
 * id. A recipient that is not an email address does not fail the caller's change (a payment must still be
 * recorded): the email is stored as failed with that reason, where the admin sees it. Oversized or empty
 * contents are a bug of the caller and throw.
 */
export async function enqueueEmail(trx: DbOrTx, email: OutgoingEmail, now: Date): Promise<string> {
  const e = outgoingEmailSchema.parse(email);
  const id = newEmailId();
  const iso = now.toISOString();
  const valid = recipientSchema.safeParse(e.to).success;
  await trx
    .insertInto('email_outbox')
    .values({
      id,
      kind: e.kind,
      order_id: e.orderId,
      to_address: e.to.slice(0, 254) || '(no address)',
      subject: e.subject,
      html: e.html,
      text_body: e.text,
      status: valid ? 'queued' : 'failed',
      attempts: 0,
      last_error: valid ? null : INVALID_RECIPIENT,
      created_at: iso,
      next_attempt_at: valid ? iso : null,
      claimed_by: null,
      claim_expires_at: null,
      sent_at: null,
      message_id: null,
    })
    .execute();
  return id;
}

const ENTRY_COLUMNS = [
  'email_outbox.id',
  'email_outbox.kind',
  'email_outbox.to_address',
  'email_outbox.subject',
  'email_outbox.status',
  'email_outbox.attempts',
  'email_outbox.last_error',
  'email_outbox.created_at',
  'email_outbox.sent_at',
  'email_outbox.next_attempt_at',
] as const;

type EntryRow = {
  id: string;
  kind: EmailKind;
  to_address: string;
  subject: string;
  status: EmailStatus;
  attempts: number;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  next_attempt_at: string | null;
};

function toEntry(r: EntryRow): OutboxEntry {
  return {
    id: r.id,
    kind: r.kind,
    to: r.to_address,
    subject: r.subject,
    status: r.status,
    attempts: Number(r.attempts),
    lastError: r.last_error,
    createdAt: r.created_at,
    sentAt: r.sent_at,
    nextAttemptAt: r.next_attempt_at,
  };
}

/** The emails of one order, oldest first, for the admin's order timeline. */
export async function emailsOfOrder(db: DbOrTx, orderId: string): Promise<OutboxEntry[]> {
  const rows = await db
    .selectFrom('email_outbox')
    .select(ENTRY_COLUMNS)
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toEntry);
}

export type OutboxListItem = OutboxEntry & { orderId: string | null; orderNumber: number | null };

/** The admin's list: newest first, optionally of one order or one status; paged by offset. */
export async function listEmails(
  db: DbOrTx,
  q: {
    orderId?: string | undefined;
    status?: EmailStatus | undefined;
    /** Kinds this admin may not see (team invitations, for staff). */
    hiddenKinds?: readonly EmailKind[];
    offset: number;
    limit: number;
  },
): Promise<{ items: OutboxListItem[]; nextCursor: number | null }> {
  let query = db
    .selectFrom('email_outbox')
    .leftJoin('orders', 'orders.id', 'email_outbox.order_id')
    .select([...ENTRY_COLUMNS, 'email_outbox.order_id', 'orders.number as order_number']);
  if (q.orderId) query = query.where('email_outbox.order_id', '=', q.orderId);
  if (q.status) query = query.where('email_outbox.status', '=', q.status);
  if (q.hiddenKinds?.length) query = query.where('email_outbox.kind', 'not in', [...q.hiddenKinds]);
  const rows = await query
    .orderBy('email_outbox.created_at', 'desc')
    .orderBy('email_outbox.id', 'desc')
    .limit(q.limit + 1)
    .offset(q.offset)
    .execute();
  const items = rows.slice(0, q.limit).map((r) => ({
    ...toEntry(r),
    orderId: r.order_id,
    orderNumber: r.order_number === null ? null : Number(r.order_number),
  }));
  return { items, nextCursor: rows.length > q.limit ? q.offset + q.limit : null };
}

/** Queued and due, or claimed by a process whose claim ran out (it died mid-send). */
function claimable(nowIso: string) {
  return (eb: ExpressionBuilder<Database, 'email_outbox'>) =>
    eb.or([
      eb.and([eb('status', '=', 'queued'), eb('next_attempt_at', '<=', nowIso)]),
      eb.and([eb('status', '=', 'sending'), eb('claim_expires_at', '<=', nowIso)]),
    ]);
}

/**
 * Claims the next due email for `holder` until `now + claimMs`, counting the attempt. The UPDATE repeats the
 * condition the candidates were found by, so when two processes race for one email only one of them changes
 * the row (PostgreSQL re-checks the condition on the row the other one committed; SQLite writes one at a
 * time); the loser moves on to the next candidate. Null when nothing is due.
 */
export async function claimNextEmail(
  db: DbOrTx,
  claim: { holder: string; now: Date; claimMs: number },
): Promise<ClaimedEmail | null> {
  const nowIso = claim.now.toISOString();
  const candidates = await db
    .selectFrom('email_outbox')
    .select('id')
    .where(claimable(nowIso))
    .orderBy('created_at')
    .limit(10)
    .execute();
  for (const { id } of candidates) {
    const row = await db
      .updateTable('email_outbox')
      .set((eb) => ({
        status: 'sending',
        attempts: eb('attempts', '+', 1),
        claimed_by: claim.holder,
        claim_expires_at: new Date(claim.now.getTime() + claim.claimMs).toISOString(),
        next_attempt_at: null,
      }))
      .where('id', '=', id)
      .where(claimable(nowIso))
      .returning(['id', 'kind', 'order_id', 'to_address', 'subject', 'html', 'text_body', 'attempts'])
      .executeTakeFirst();
    if (row)
      return {
        id: row.id,
        kind: row.kind,
        orderId: row.order_id,
        to: row.to_address,
        subject: row.subject,
        html: row.html,
        text: row.text_body,
        attempts: Number(row.attempts),
      };
  }
  return null;
}

/** What became of one attempt, written only while `holder` still holds the claim. */
export type AttemptOutcome =
  | { status: 'sent'; messageId: string | null }
  | { status: 'queued'; lastError: string; nextAttemptAt: Date }
  | { status: 'failed'; lastError: string };

/**
 * Records an attempt's outcome. False when the claim was no longer this holder's (it ran out and another
 * process took the email over): that process's outcome stands.
 */
export async function settleAttempt(
  db: DbOrTx,
  attempt: { id: string; holder: string; now: Date; outcome: AttemptOutcome },
): Promise<boolean> {
  const o = attempt.outcome;
  const result = await db
    .updateTable('email_outbox')
    .set({
      status: o.status,
      claimed_by: null,
      claim_expires_at: null,
      next_attempt_at: o.status === 'queued' ? o.nextAttemptAt.toISOString() : null,
      last_error: o.status === 'sent' ? null : clipError(o.lastError),
      ...(o.status === 'sent'
        ? { sent_at: attempt.now.toISOString(), message_id: o.messageId?.slice(0, 300) ?? null }
        : {}),
    })
    .where('id', '=', attempt.id)
    .where('status', '=', 'sending')
    .where('claimed_by', '=', attempt.holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type UnsendableEmail = {
  id: string;
  kind: EmailKind;
  orderId: string | null;
  to: string;
  subject: string;
  text: string;
};

/**
 * Notes on queued emails that no mail server is configured, once each (an email already showing that reason
 * is left alone, so nothing loops): they stay queued and due, and a process with SMTP_URL sends them. Returns
 * the emails noted now, at most `limit`.
 */
export async function noteUnsendable(db: DbOrTx, limit = 100): Promise<UnsendableEmail[]> {
  const unnoted = (eb: ExpressionBuilder<Database, 'email_outbox'>) =>
    eb.and([
      eb('status', '=', 'queued'),
      eb.or([eb('last_error', 'is', null), eb('last_error', '!=', NO_MAIL_SERVER)]),
    ]);
  const ids = await db
    .selectFrom('email_outbox')
    .select('id')
    .where(unnoted)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('email_outbox')
    .set({ last_error: NO_MAIL_SERVER })
    .where(
      'id',
      'in',
      ids.map((r) => r.id),
    )
    .where(unnoted)
    .returning(['id', 'kind', 'order_id', 'to_address', 'subject', 'text_body', 'created_at'])
    .execute();
  return rows
    .sort((a, b) => a.created_at.localeCompare(b.created_at))
    .map((r) => ({
      id: r.id,
      kind: r.kind,
      orderId: r.order_id,
      to: r.to_address,
      subject: r.subject,
      text: r.text_body,
    }));
}

/**
 * Queues an email again, due now, its attempts counted from zero: a failed one after the cause was fixed, or
 * a sent one the customer lost. Refused ('sending') while a process is sending it.
 */
export async function requeueEmail(
  db: DbOrTx,
  id: string,
  now: Date,
  /** Kinds this admin may not send again (team invitations, for staff): refused as 'forbidden'. */
  hiddenKinds: readonly EmailKind[] = [],
): Promise<
  | { ok: true; kind: EmailKind; orderId: string | null; was: EmailStatus }
  | { ok: false; reason: 'not_found' | 'sending' | 'forbidden' }
> {
  const nowIso = now.toISOString();
  const before = await db
    .selectFrom('email_outbox')
    .select(['status', 'kind', 'order_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!before) return { ok: false, reason: 'not_found' };
  if (hiddenKinds.includes(before.kind)) return { ok: false, reason: 'forbidden' };
  const result = await db
    .updateTable('email_outbox')
    .set({
      status: 'queued',
      attempts: 0,
      next_attempt_at: nowIso,
      last_error: null,
      claimed_by: null,
      claim_expires_at: null,
    })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('status', '!=', 'sending'), eb('claim_expires_at', '<=', nowIso)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return { ok: false, reason: 'sending' };
  return { ok: true, kind: before.kind, orderId: before.order_id, was: before.status };
}
