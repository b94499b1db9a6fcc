import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { AdminRole, Db } from '../../db/database.js';
import {
  findSession,
  revokeSession,
  SESSION_ID_PATTERN,
  type SessionRecord,
  touchSession,
} from './admin-sessions.repository.js';
import { type DeviceCookiePort, memoryDeviceCookie, requestDeviceCookie } from './device-cookie-http.js';

export const SESSION_COOKIE = 'store_session';

/**
 * What the sealed cookie carries: only the id of the session's row in admin_sessions, where its admin, epoch
 * and times are kept, so that signing out can end this one session on the server. A cookie from before that
 * row existed (adminId, epoch, issuedAt, lastSeenAt) has no id and reads as signed out.
 */
export const sessionDataSchema = z.object({ sessionId: z.string().regex(SESSION_ID_PATTERN) });
export type SessionData = z.infer<typeof sessionDataSchema>;

declare module '@fastify/secure-session' {
  interface SessionData {
    admin: unknown;
  }
}

/**
 * The signed-in operator as every admin procedure and route sees it; the role is read with the session on
 * every request, so a changed role applies at once.
 */
export type AdminIdentity = {
  id: number;
  email: string;
  loginAt: string;
  role: AdminRole;
  /** The account signs in with a code from an authenticator app (decision 0032). */
  twoFactor: boolean;
  /** When this session last proved who is behind it (a code; the password without two-factor). */
  confirmedAt: string | null;
  /** The session's row, for the steps that mark it (a code given, a confirmation). */
  sessionId: string;
};

/**
 * A session whose password was right but which may not work yet: it owes a two-factor code ('code'), or
 * its account must turn two-factor on first ('enrol', with ADMIN_REQUIRE_2FA).
 */
export type PendingSignIn = { stage: 'code' | 'enrol'; admin: AdminIdentity };

export type SignInState = { admin: AdminIdentity | null; pending: PendingSignIn | null };

/**
 * How long a session may wait for its second step (its two-factor code, or enrolment) after the password:
 * then the password again.
 */
export const CODE_STEP_MS = 10 * 60_000;

/** How procedures reach the session without knowing about cookies (tests pass an in-memory one). */
export interface SessionPort {
  read(): unknown;
  write(data: SessionData): void;
  clear(): void;
  /** The long-lived device cookie beside the session (see device-cookie.ts); signing out keeps it. */
  device: DeviceCookiePort;
  /** Who is on the other end, kept with the session for listing an admin's sessions; null when unknown. */
  client: SessionClient;
}

export type SessionClient = { ip: string | null; userAgent: string | null };

export type SessionPolicy = { ttlMs: number; idleMs: number; requireTwoFactor: boolean };

/**
 * The configured lifetime, idle timeout and ADMIN_REQUIRE_2FA: the one policy every session check and list
 * goes by.
 */
export function sessionPolicyOf(config: { session: SessionPolicy }): SessionPolicy {
  return {
    ttlMs: config.session.ttlMs,
    idleMs: config.session.idleMs,
    requireTwoFactor: config.session.requireTwoFactor,
  };
}

/** last_seen_at is written at most once a minute: a write on every admin request would cost more than the read. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The one session check, shared by tRPC's adminProcedure and the admin HTTP routes, in one lookup by primary
 * keys: the cookie's session row exists and is not revoked (logout), was made in the admin's current epoch
 * ("sign out everywhere" and password changes bump it), and is inside its absolute lifetime and idle timeout.
 * Anything else clears the cookie.
 */
export async function resolveAdmin(
  session: SessionPort,
  deps: { db: Db; clock: Clock; policy: SessionPolicy },
): Promise<AdminIdentity | null> {
  return (await resolveSignIn(session, deps)).admin;
}

/**
 * resolveAdmin's check, telling apart a session that may work (admin) from one that is half signed in
 * (pending: it owes a two-factor code, or must enrol). Only `admin` passes adminProcedure and the admin
 * routes; a pending session reaches the sign-in's next step and nothing else.
 */
export async function resolveSignIn(
  session: SessionPort,
  deps: { db: Db; clock: Clock; policy: SessionPolicy },
): Promise<SignInState> {
  const none = { admin: null, pending: null };
  const sessionId = currentSessionId(session);
  if (sessionId === undefined) return none;
  const record = sessionId === null ? null : await findSession(deps.db, sessionId);
  const now = deps.clock.now();
  if (!sessionId || !record || !isLive(record, now.getTime(), deps.policy)) {
    session.clear();
    return none;
  }
  if (now.getTime() - Date.parse(record.lastSeenAt) >= TOUCH_INTERVAL_MS) {
    await touchSession(deps.db, sessionId, now, session.client.ip);
  }
  const admin: AdminIdentity = {
    id: record.adminId,
    email: record.email,
    loginAt: record.createdAt,
    role: record.role,
    twoFactor: record.twoFactor,
    confirmedAt: record.confirmedAt,
    sessionId,
  };
  const stage = record.twoFactor
    ? record.twoFactorAt === null
      ? 'code'
      : null
    : deps.policy.requireTwoFactor
      ? 'enrol'
      : null;
  if (stage === null) return { admin, pending: null };
  // A sign-in has ten minutes for its second step; then the password again. The row goes too, so the
  // account's list of sessions does not keep it.
  if (now.getTime() - Date.parse(record.createdAt) > CODE_STEP_MS) {
    await revokeSession(deps.db, sessionId, 'ended', now);
    session.clear();
    return none;
  }
  return { admin: null, pending: { stage, admin } };
}

function isLive(r: SessionRecord, now: number, policy: SessionPolicy): boolean {
  return (
    r.revokedAt === null &&
    r.epoch === r.adminEpoch &&
    now - Date.parse(r.createdAt) <= policy.ttlMs &&
    now - Date.parse(r.lastSeenAt) <= policy.idleMs
  );
}

/** The cookie's session id; undefined without a cookie, null for one that is not a current session cookie. */
export function currentSessionId(session: SessionPort): string | null | undefined {
  const raw = session.read();
  if (raw === null || raw === undefined) return undefined;
  const parsed = sessionDataSchema.safeParse(raw);
  return parsed.success ? parsed.data.sessionId : null;
}

/** The SessionPort over @fastify/secure-session's request.session. */
export function cookieSession(req: FastifyRequest): SessionPort {
  return {
    read: () => req.session.get('admin'),
    write: (data) => req.session.set('admin', data),
    clear: () => req.session.delete(),
    device: requestDeviceCookie(req),
    client: { ip: req.ip, userAgent: req.headers['user-agent'] ?? null },
  };
}

export function memorySession(
  initial: SessionData | null = null,
): SessionPort & { current: SessionData | null } {
  const port = {
    current: initial,
    read: () => port.current,
    write: (data: SessionData) => {
      port.current = data;
    },
    clear: () => {
      port.current = null;
    },
    device: memoryDeviceCookie(),
    client: { ip: null, userAgent: null },
  };
  return port;
}
