import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../trpc/context.js';
import { findAdminById } from './admins.repository.js';
import { type DeviceCookiePort, memoryDeviceCookie, requestDeviceCookie } from './device-cookie-http.js';

export const SESSION_COOKIE = 'store_session';

/** What the sealed cookie carries: who, which sign-out epoch, and when the session began and was last used. */
export const sessionDataSchema = z.object({
  adminId: z.number().int().positive(),
  epoch: z.number().int().min(0),
  issuedAt: z.number().int().positive(),
  lastSeenAt: z.number().int().positive(),
});
export type SessionData = z.infer<typeof sessionDataSchema>;

declare module '@fastify/secure-session' {
  interface SessionData {
    admin: unknown;
  }
}

/** The signed-in operator as every admin procedure and route sees it. */
export type AdminIdentity = { id: number; email: string; loginAt: string };

/** How procedures reach the session without knowing about cookies (tests pass an in-memory one). */
export interface SessionPort {
  read(): unknown;
  write(data: SessionData): void;
  clear(): void;
  /** The long-lived device cookie beside the session (see device-cookie.ts); signing out keeps it. */
  device: DeviceCookiePort;
}

export type SessionPolicy = { ttlMs: number; idleMs: number };

/** Refreshing lastSeenAt rewrites the cookie; doing it at most once a minute keeps responses cacheable. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The one session check, shared by tRPC's adminProcedure and the admin HTTP routes: a well-formed session,
 * inside its absolute lifetime and idle timeout, for an admin who still exists, issued in the admin's current
 * epoch (so "sign out everywhere" and password changes end it). Anything else clears the cookie.
 */
export async function resolveAdmin(
  session: SessionPort,
  deps: { db: Db; clock: Clock; policy: SessionPolicy },
): Promise<AdminIdentity | null> {
  const raw = session.read();
  if (raw === null || raw === undefined) return null;
  const parsed = sessionDataSchema.safeParse(raw);
  if (!parsed.success) {
    session.clear();
    return null;
  }
  const data = parsed.data;
  const now = deps.clock.now().getTime();
  const expired =
    now - data.issuedAt > deps.policy.ttlMs ||
    now - data.lastSeenAt > deps.policy.idleMs ||
    data.issuedAt > now + 60_000;
  const admin = expired ? null : await findAdminById(deps.db, data.adminId);
  if (!admin || admin.sessionEpoch !== data.epoch) {
    session.clear();
    return null;
  }
  if (now - data.lastSeenAt > TOUCH_INTERVAL_MS) session.write({ ...data, lastSeenAt: now });
  return { id: admin.id, email: admin.email, loginAt: new Date(data.issuedAt).toISOString() };
}

/** The SessionPort over @fastify/secure-session's request.session. */
export function cookieSession(req: FastifyRequest): SessionPort {
  return {
    read: () => req.session.get('admin'),
    write: (data) => req.session.set('admin', data),
    clear: () => req.session.delete(),
    device: requestDeviceCookie(req),
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
  };
  return port;
}
