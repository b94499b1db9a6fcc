import { createHash, randomBytes } from 'node:crypto';
import type { AdminRole, Db, DbOrTx } from '../../../db/database.js';
import { oneAtATime } from '../../../db/engine-sql.js';
import { ACCOUNTS_LOCK, AdminAccountError } from '../admin-accounts.js';
import { findAdminByEmail, insertAdmin, normaliseEmail } from '../admins.repository.js';

/**
 * Invitations (decision 0032): an owner names an email and a role; the store makes a one-time link
 * that lets whoever holds it choose a password and become that admin. Only a hash of the link's token is
 * kept, a link works once and for seven days, and a new invitation for the same email replaces the old one.
 */
export const INVITE_LIFETIME_MS = 7 * 24 * 3600_000;
export const INVITE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type Invite = {
  id: number;
  email: string;
  role: AdminRole;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
};

/** An invitation refused (an admin already, a spent link): one of the accounts' own refusals. */
export class InviteError extends AdminAccountError {}

function tokenHash(token: string): string {
  return createHash('sha256').update(`invite:${token}`).digest('base64url');
}

/** The invitation's link: the token in the fragment, so it never reaches a server log or a Referer. */
export function inviteLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/admin/invite#${token}`;
}

export async function createInvite(
  db: Db,
  opts: {
    email: string;
    role: AdminRole;
    invitedBy: string;
    now: Date;
    /** Runs in the invitation's transaction (queues its email, so both commit or neither). */
    alsoInTransaction?: (tx: DbOrTx, invite: Invite, token: string) => Promise<void>;
  },
): Promise<{ invite: Invite; token: string }> {
  const email = normaliseEmail(opts.email);
  const token = randomBytes(32).toString('base64url');
  const iso = opts.now.toISOString();
  const expiresAt = new Date(opts.now.getTime() + INVITE_LIFETIME_MS).toISOString();
  const invite = await db.transaction().execute(async (tx) => {
    await oneAtATime(tx, ACCOUNTS_LOCK);
    if (await findAdminByEmail(tx, email)) throw new InviteError(`${email} is an admin already`);
    await tx
      .updateTable('admin_invites')
      .set({ revoked_at: iso })
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
    await forgetInviteLinks(tx, email);
    const row = await tx
      .insertInto('admin_invites')
      .values({
        token_hash: tokenHash(token),
        email,
        role: opts.role,
        invited_by: opts.invitedBy,
        created_at: iso,
        expires_at: expiresAt,
        accepted_at: null,
        revoked_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const invite = {
      id: row.id,
      email,
      role: opts.role,
      invitedBy: opts.invitedBy,
      createdAt: iso,
      expiresAt,
    };
    await opts.alsoInTransaction?.(tx, invite, token);
    return invite;
  });
  return { token, invite };
}

const inviteColumns = [
  'id',
  'email',
  'role',
  'invited_by as invitedBy',
  'created_at as createdAt',
  'expires_at as expiresAt',
] as const;

/** The invitations that can still be accepted, newest first. */
export async function openInvites(db: DbOrTx, now: Date): Promise<Invite[]> {
  return db
    .selectFrom('admin_invites')
    .select(inviteColumns)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
}

/** The invitation a link names, while it can be accepted; null otherwise (used, withdrawn, expired, unknown). */
export async function findOpenInvite(db: DbOrTx, token: string, now: Date): Promise<Invite | null> {
  if (!INVITE_TOKEN_PATTERN.test(token)) return null;
  const row = await db
    .selectFrom('admin_invites')
    .select(inviteColumns)
    .where('token_hash', '=', tokenHash(token))
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row ?? null;
}

/**
 * The emails of an email's invitations lose their link once it cannot be used (accepted, withdrawn,
 * replaced): the outbox keeps what it sent, and a copy of the database must not hold a working link.
 */
async function forgetInviteLinks(db: DbOrTx, email: string): Promise<void> {
  const note = 'This invitation has been used, withdrawn or replaced: its link was removed from the outbox.';
  await db
    .updateTable('email_outbox')
    .set({ text_body: note, html: `<!DOCTYPE html><html lang="en"><body><p>${note}</p></body></html>` })
    .where('kind', '=', 'admin_invite')
    .where('to_address', '=', email)
    .where('status', '<>', 'sending')
    .execute();
}

export async function revokeInvite(db: Db, id: number, now: Date): Promise<Invite | null> {
  const invite = await db
    .selectFrom('admin_invites')
    .select(inviteColumns)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!invite) return null;
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('admin_invites')
      .set({ revoked_at: now.toISOString() })
      .where('id', '=', id)
      .execute();
    await forgetInviteLinks(tx, invite.email);
  });
  return invite;
}

/**
 * Makes the invited account, once: the link is taken in the same transaction as the account is made, so
 * two tabs (or two people) with one link cannot both get an account.
 */
export async function acceptInvite(
  db: Db,
  opts: { token: string; passwordHash: string; now: Date },
): Promise<{ id: number; email: string; role: AdminRole }> {
  return db.transaction().execute(async (tx) => {
    await oneAtATime(tx, ACCOUNTS_LOCK);
    const invite = await findOpenInvite(tx, opts.token, opts.now);
    if (!invite) throw new InviteError(INVITE_GONE);
    if (await findAdminByEmail(tx, invite.email))
      throw new InviteError(`${invite.email} is an admin already`);
    const taken = await tx
      .updateTable('admin_invites')
      .set({ accepted_at: opts.now.toISOString() })
      .where('id', '=', invite.id)
      .where('accepted_at', 'is', null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw new InviteError(INVITE_GONE);
    const id = await insertAdmin(tx, invite.email, opts.passwordHash, opts.now, invite.role);
    await forgetInviteLinks(tx, invite.email);
    return { id, email: invite.email, role: invite.role };
  });
}

export const INVITE_GONE =
  'This invitation link has been used, withdrawn or has expired. Ask the shop owner for a new one.';
