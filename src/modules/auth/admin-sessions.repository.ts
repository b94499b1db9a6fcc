import { randomBytes } from 'node:crypto';
import type { AdminRole, DbOrTx } from '../../db/database.js';

/** 128 random bits, the same alphabet as the device cookie's id. */
export function newSessionId(): string {
  return randomBytes(16).toString('base64url');
}

export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

const MAX_USER_AGENT_LENGTH = 512;

export async function insertSession(
  db: DbOrTx,
  s: {
    id: string;
    adminId: number;
    epoch: number;
    now: Date;
    ip: string;
    userAgent: string | null;
    /** The password alone proves who signs in (no two-factor on the account): the session starts confirmed. */
    confirmed: boolean;
  },
): Promise<void> {
  const iso = s.now.toISOString();
  await db
    .insertInto('admin_sessions')
    .values({
      id: s.id,
      admin_id: s.adminId,
      epoch: s.epoch,
      created_at: iso,
      last_seen_at: iso,
      user_agent: s.userAgent === null ? null : s.userAgent.slice(0, MAX_USER_AGENT_LENGTH),
      created_ip: s.ip,
      last_seen_ip: s.ip,
      confirmed_at: s.confirmed ? iso : null,
    })
    .execute();
}

/** What resolveAdmin needs to judge one session, read with its admin in one lookup by primary keys. */
export type SessionRecord = {
  adminId: number;
  email: string;
  role: AdminRole;
  /** The epoch the session was made in, and the admin's current one: they differ once it was ended. */
  epoch: number;
  adminEpoch: number;
  createdAt: string;
  lastSeenAt: string;
  revokedAt: string | null;
  /** The account has two-factor sign-in on. */
  twoFactor: boolean;
  /** When the session gave its code (null: it owes one, if the account has two-factor). */
  twoFactorAt: string | null;
  confirmedAt: string | null;
};

export async function findSession(db: DbOrTx, id: string): Promise<SessionRecord | null> {
  const row = await db
    .selectFrom('admin_sessions as s')
    .innerJoin('admins as a', 'a.id', 's.admin_id')
    .select([
      'a.id as adminId',
      'a.email as email',
      'a.role as role',
      's.epoch as epoch',
      'a.session_epoch as adminEpoch',
      's.created_at as createdAt',
      's.last_seen_at as lastSeenAt',
      's.revoked_at as revokedAt',
      'a.totp_enabled_at as totpEnabledAt',
      's.two_factor_at as twoFactorAt',
      's.confirmed_at as confirmedAt',
    ])
    .where('s.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const { totpEnabledAt, ...rest } = row;
  return { ...rest, twoFactor: totpEnabledAt !== null };
}

/**
 * The session proved who is behind it now: with a two-factor code (which also completes a sign-in that owed
 * one), or with the password on an account without two-factor.
 */
export async function markSessionConfirmed(
  db: DbOrTx,
  id: string,
  now: Date,
  by: 'code' | 'password',
): Promise<void> {
  const iso = now.toISOString();
  await db
    .updateTable('admin_sessions')
    .set(by === 'code' ? { confirmed_at: iso, two_factor_at: iso } : { confirmed_at: iso })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Gives a session a new id (its cookie changes with it): the old id no longer finds anything. */
export async function renameSession(db: DbOrTx, id: string, newId: string): Promise<void> {
  await db.updateTable('admin_sessions').set({ id: newId }).where('id', '=', id).execute();
}

export async function touchSession(db: DbOrTx, id: string, now: Date, ip: string | null): Promise<void> {
  await db
    .updateTable('admin_sessions')
    .set({ last_seen_at: now.toISOString(), ...(ip === null ? {} : { last_seen_ip: ip }) })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export type RevokeReason = 'logout' | 'ended';

/** A session that can still be used, as its admin sees it in their list. */
export type LiveSession = {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  createdIp: string | null;
  lastSeenIp: string | null;
};

/** At most this many of an admin's sessions are listed (a sign-in prunes the dead ones). */
const LISTED_SESSIONS = 100;

/**
 * An admin's sessions that a request could still use (the same tests as resolveAdmin's: not revoked, of
 * the admin's current epoch, inside the lifetime and the idle timeout), most recently seen first.
 */
export async function liveSessionsOf(
  db: DbOrTx,
  adminId: number,
  now: Date,
  policy: { ttlMs: number; idleMs: number },
): Promise<LiveSession[]> {
  const bornAfter = new Date(now.getTime() - policy.ttlMs).toISOString();
  const seenAfter = new Date(now.getTime() - policy.idleMs).toISOString();
  return db
    .selectFrom('admin_sessions as s')
    .innerJoin('admins as a', 'a.id', 's.admin_id')
    .select([
      's.id as id',
      's.created_at as createdAt',
      's.last_seen_at as lastSeenAt',
      's.user_agent as userAgent',
      's.created_ip as createdIp',
      's.last_seen_ip as lastSeenIp',
    ])
    .where('s.admin_id', '=', adminId)
    .where('s.revoked_at', 'is', null)
    .whereRef('s.epoch', '=', 'a.session_epoch')
    .where('s.created_at', '>=', bornAfter)
    .where('s.last_seen_at', '>=', seenAfter)
    .orderBy('s.last_seen_at', 'desc')
    .orderBy('s.id')
    .limit(LISTED_SESSIONS)
    .execute();
}

export async function revokeSession(db: DbOrTx, id: string, reason: RevokeReason, now: Date): Promise<void> {
  await db
    .updateTable('admin_sessions')
    .set({ revoked_at: now.toISOString(), revoked_reason: reason })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Moves one session into its admin's current epoch: the browser that changed the password stays signed in
 * while the epoch bump ends every other session.
 */
export async function carrySessionToCurrentEpoch(db: DbOrTx, id: string, adminId: number): Promise<void> {
  await db
    .updateTable('admin_sessions')
    .set((eb) => ({
      epoch: eb.selectFrom('admins').select('session_epoch').where('admins.id', '=', adminId),
    }))
    .where('id', '=', id)
    .where('admin_id', '=', adminId)
    .execute();
}

/**
 * Deletes the rows no request can use any more (revoked, ended by an epoch bump, past the lifetime or the idle
 * timeout). Run at each sign-in, the only thing that adds rows, so the table stays as small as the sessions
 * alive in the last lifetime; a missing row reads as signed out, the same as a revoked one.
 */
export async function pruneSessions(
  db: DbOrTx,
  now: Date,
  policy: { ttlMs: number; idleMs: number },
): Promise<void> {
  const bornBefore = new Date(now.getTime() - policy.ttlMs).toISOString();
  const seenBefore = new Date(now.getTime() - policy.idleMs).toISOString();
  await db
    .deleteFrom('admin_sessions')
    .where((eb) =>
      eb.or([
        eb('revoked_at', 'is not', null),
        eb('created_at', '<', bornBefore),
        eb('last_seen_at', '<', seenBefore),
        eb(
          'epoch',
          '<>',
          eb
            .selectFrom('admins')
            .select('session_epoch')
            .whereRef('admins.id', '=', 'admin_sessions.admin_id'),
        ),
      ]),
    )
    .execute();
}
