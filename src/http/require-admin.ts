import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import {
  type AdminIdentity,
  cookieSession,
  resolveAdmin,
  type SessionPolicy,
} from '../modules/auth/session.js';
import { securityFacts } from './security-facts.js';

declare module 'fastify' {
  interface FastifyRequest {
    admin?: AdminIdentity;
  }
}

/**
 * The preHandler for every admin HTTP route (uploads, downloads): the same check as tRPC's adminProcedure,
 * through the same resolveAdmin. The resolved admin is left on request.admin.
 */
export function requireAdmin(deps: {
  db: Db;
  clock: Clock;
  policy: SessionPolicy;
}): preHandlerAsyncHookHandler {
  return async function requireAdminHandler(req: FastifyRequest, reply: FastifyReply) {
    const admin = await resolveAdmin(cookieSession(req), deps);
    if (!admin) {
      // Info, not warning: an expired session is the everyday cause. Still a security event, so a run of
      // them (someone probing the admin routes) shows in the application log.
      req.log.info(
        { event: 'security.unauthorized', ...securityFacts(req) },
        'refused an admin request without a valid session',
      );
      await reply.code(401).send({ error: 'Unauthorized', message: 'Please sign in' });
      return;
    }
    req.admin = admin;
  };
}
