import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import { recordAdminChange } from '../modules/audit/admin-change.js';
import { isFreshlyConfirmed } from '../modules/auth/fresh-proof.js';
import {
  type AdminIdentity,
  cookieSession,
  resolveAdmin,
  type SessionPolicy,
} from '../modules/auth/session.js';
import { FRESH_PROOF_MESSAGE, OWNER_ONLY_MESSAGE } from '../shared/auth.js';
import { securityFacts } from './security-facts.js';

declare module 'fastify' {
  interface FastifyRequest {
    admin?: AdminIdentity;
  }
  interface FastifyInstance {
    /** Every admin HTTP route and who may use it, as registered (adminRouteInventory). */
    adminRoutes: AdminRoute[];
  }
}

/** Who an admin route is for: any signed-in admin, or the owner only (decision 0030). */
export type AdminAudience = 'admin' | 'owner';
export type AdminRoute = { method: string; url: string; audience: AdminAudience; freshProof: boolean };

type AdminGuard = preHandlerAsyncHookHandler & { audience: AdminAudience; freshProof: boolean };

/**
 * The preHandler for every admin HTTP route (uploads, downloads): the same checks as tRPC's adminProcedure
 * and ownerProcedure, through the same resolveAdmin. The resolved admin is left on request.admin.
 */
export function requireAdmin(
  deps: { db: Db; clock: Clock; policy: SessionPolicy },
  audience: AdminAudience = 'admin',
  /** The route needs a confirmation from the last 10 minutes, as procedures marked freshCode (HTTP 412). */
  opts: { freshProof?: boolean } = {},
): AdminGuard {
  const freshProof = opts.freshProof ?? false;
  async function requireAdminHandler(req: FastifyRequest, reply: FastifyReply) {
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
    if (audience === 'owner' && admin.role !== 'owner') {
      req.log.warn(
        { event: 'security.forbidden', adminId: admin.id, ...securityFacts(req) },
        'refused an owner-only request from a staff account',
      );
      await reply.code(403).send({ error: 'Forbidden', message: OWNER_ONLY_MESSAGE });
      return;
    }
    if (freshProof && !isFreshlyConfirmed(admin, deps.clock.now())) {
      req.log.info(
        { event: 'admin.confirm.needed', account: admin.email, ...securityFacts(req) },
        'an action needs a fresh confirmation',
      );
      await reply.code(412).send({ error: 'Precondition Failed', message: FRESH_PROOF_MESSAGE });
      return;
    }
    req.admin = admin;
  }
  return Object.assign(requireAdminHandler, { audience, freshProof });
}

/**
 * Keeps app.adminRoutes: each route guarded by requireAdmin, with its audience, so the role test can walk
 * every one instead of a list kept by hand. The routes that change something (every method but GET) also
 * record each success in the admin audit, as admin procedures do (decision 0031). Registered before any
 * route.
 */
export function adminRouteInventory(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  const routes: AdminRoute[] = [];
  app.decorate('adminRoutes', routes);
  app.addHook('onRoute', (route) => {
    const handlers = [route.preHandler ?? []].flat();
    const guard = handlers.find((h): h is AdminGuard => typeof h === 'function' && 'audience' in h);
    if (!guard) return;
    const methods = [route.method].flat().filter((m) => m !== 'HEAD');
    for (const method of methods) {
      routes.push({ method, url: route.url, audience: guard.audience, freshProof: guard.freshProof });
    }
    if (methods.every((m) => m === 'GET')) return;
    // onSend, not onResponse: the answer leaves after its audit row is written, as a procedure's does, so
    // whoever reads the audit after the answer finds the change there.
    const audit = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (!req.admin || reply.statusCode >= 400) return payload;
      const params = (req.params ?? {}) as Record<string, unknown>;
      await recordAdminChange(
        { db: deps.db, clock: deps.clock, ip: req.ip, log: req.log },
        req.admin,
        `${req.method} ${route.url}`,
        // The thing changed is the route's id (a version) or product (its pictures).
        { id: params.id ?? params.productId, ...params, status: reply.statusCode },
      );
      return payload;
    };
    route.onSend = [...[route.onSend ?? []].flat(), audit];
  });
}
